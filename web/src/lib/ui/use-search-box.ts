import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';

/**
 * A search box bound to a URL parameter: typing updates the URL after a pause, and a URL changed
 * from elsewhere (a link, the back button) updates the box, without undoing what is being typed.
 */
export function useSearchBox(
  fromUrl: string | undefined,
  apply: (value: string | undefined) => void,
  waitMs = 250,
) {
  const [typed, setTyped] = useState(fromUrl ?? '');
  const applied = useRef(fromUrl);
  const debounced = useDebouncedCallback((value: string) => {
    applied.current = value || undefined;
    apply(value || undefined);
  }, waitMs);
  useEffect(() => {
    if (fromUrl !== applied.current) {
      applied.current = fromUrl;
      setTyped(fromUrl ?? '');
    }
  }, [fromUrl]);
  return {
    value: typed,
    onChange: (event: { currentTarget: { value: string } }) => {
      setTyped(event.currentTarget.value);
      debounced(event.currentTarget.value);
    },
  };
}
