import { Alert, Button, Group, Modal, Stack, type ModalProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { describeError } from '../../../lib/api-client';
import { newIdempotencyKey } from '../../../lib/idempotency-key';

interface Props {
  /** The button that opens the form ("Create queue…"), disabled with the reason when refused. */
  label: string;
  refusal: string | null;
  /** The dialog's title; the form is named by it too (its accessible name). */
  title: string;
  size?: ModalProps['size'];
  submitLabel: string;
  /** What the submit button's colour says: red for what removes. */
  destructive?: boolean;
  canSubmit: boolean;
  /** The request's mutation: whether it is under way, its error, and forgetting it when the dialog closes. */
  mutation: { isPending: boolean; error: unknown; reset(): void };
  /** Sends the request with this opening's Idempotency-Key; resolves once done (the dialog closes). */
  submit(idempotencyKey: string): Promise<unknown>;
  children: ReactNode;
}

/**
 * A change made through a form: the button, the dialog, its error in the gateway's words, and one
 * Idempotency-Key per opening, so submitting again after a lost answer acts once.
 */
export function ActionFormButton(props: Props) {
  const [key, setKey] = useState<string | null>(null);
  const close = () => {
    setKey(null);
    props.mutation.reset();
  };
  return (
    <>
      <RefusableButton refusal={props.refusal} variant="light" onClick={() => setKey(newIdempotencyKey())}>
        {props.label}
      </RefusableButton>
      <Modal opened={key !== null} onClose={close} title={props.title} size={props.size}>
        <Stack
          component="form"
          aria-label={props.title}
          onSubmit={(e) => {
            e.preventDefault();
            if (key) void props.submit(key).then(close, () => undefined);
          }}
        >
          {props.children}
          {props.mutation.error ? <Alert color="red">{describeError(props.mutation.error)}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              type="submit"
              color={props.destructive ? 'red' : undefined}
              disabled={!props.canSubmit}
              loading={props.mutation.isPending}
            >
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
