import type { BrowsedMessage } from '@artemis-studio/contracts';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { resendDraft } from '../resend-draft';
import { SendMessageButton } from './send-message-button';

/**
 * "Edit and resend…" for the message in the drawer: the send form, filled from it, or the button
 * refused with why the message cannot be sent again as it is (a cut or masked body, a masked
 * property, a large message).
 */
export function ResendAction({
  clusterId,
  queue,
  node,
  message,
  refusal,
}: {
  clusterId: string;
  queue: string;
  /** The node the message was browsed on: its id is that node's. */
  node: string | undefined;
  message: BrowsedMessage;
  refusal: string | null;
}) {
  const draft = resendDraft(message);
  if ('refusal' in draft || !node)
    return (
      <RefusableButton
        refusal={refusal ?? ('refusal' in draft ? `Not as it is: ${draft.refusal}` : 'no node')}
      >
        Edit and resend…
      </RefusableButton>
    );
  return (
    <SendMessageButton
      clusterId={clusterId}
      queue={queue}
      refusal={refusal}
      resend={{ draft, messageId: message.messageId, node }}
    />
  );
}
