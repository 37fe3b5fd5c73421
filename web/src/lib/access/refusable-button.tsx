import { Button, Tooltip, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A button for an action the signed-in role may not take: shown, but disabled, with the reason on
 * hover and to assistive technology, so a viewer learns what exists and why it is not theirs.
 */
export function RefusableButton({
  refusal,
  children,
  onClick,
  ...props
}: ButtonProps & { refusal: string | null; children: ReactNode; onClick?: () => void }) {
  if (!refusal)
    return (
      <Button {...props} onClick={onClick}>
        {children}
      </Button>
    );
  return (
    <Tooltip label={refusal}>
      <Button {...props} disabled aria-disabled data-refusal={refusal} title={refusal}>
        {children}
      </Button>
    </Tooltip>
  );
}
