import type { BrokerEvent } from '@artemis-studio/contracts';
import { Code, Drawer } from '@mantine/core';

/** A broker event in full, every `_AMQ_*` property included, beside the screen it was opened from. */
export function EventDrawer({ event, onClose }: { event: BrokerEvent | null; onClose(): void }) {
  return (
    <Drawer opened={event !== null} onClose={onClose} position="right" size="lg" title={event?.type}>
      {event && <Code block>{JSON.stringify(event, null, 2)}</Code>}
    </Drawer>
  );
}
