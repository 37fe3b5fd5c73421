import type { BrowsedMessage } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { chosenSelector } from './export-link';

const message = (userId: string | null) => ({ messageId: '1', userId }) as BrowsedMessage;

describe('exporting chosen messages', () => {
  it('names them by the id the broker selector knows them by, quoted', () => {
    expect(chosenSelector([message('ID:a'), message("ID:it's")])).toEqual({
      filter: "AMQUserID IN ('ID:a', 'ID:it''s')",
    });
  });

  it('says why when one of them carries no id of its own', () => {
    expect(chosenSelector([message('ID:a'), message(null)])).toEqual({
      refusal: expect.stringMatching(/^1 of the chosen messages carry no message id/),
    });
  });
});
