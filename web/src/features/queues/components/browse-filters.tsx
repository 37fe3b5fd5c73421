import { BODY_MATCH_KINDS, type BodyFilter, type BodyMatchKind } from '@artemis-studio/contracts';
import { Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';

const MATCH_LABELS: Record<BodyMatchKind, string> = { cel: 'CEL', text: 'Text', regex: 'Regex (RE2)' };
const BODY_HINTS: Record<BodyMatchKind, string> = {
  cel: 'A CEL expression over body (its JSON) and properties, e.g. body.status == "REJECTED"',
  text: 'The body contains this text, as written',
  regex: 'An RE2 regular expression found in the body, e.g. "status":"REJ\\w+"',
};

/** What the browse box is read with: the broker's selector, and a body filter the owner applies. */
export interface BrowseFilters {
  filter: string;
  body: BodyFilter | null;
}

/** An error of the page is the body filter's when the owner says so, the selector's otherwise. */
export const isBodyFilterError = (error: string | null): boolean => error?.startsWith('body filter') ?? false;

/**
 * The browse box: the broker's selector (headers and properties, applied first by the broker) and
 * a body filter (read by the cluster's owner on each message the selector lets through), each
 * applied on Enter or on leaving the field, each with its error beside it.
 */
export function BrowseFilterFields({
  value,
  error,
  onChange,
}: {
  value: BrowseFilters;
  error: string | null;
  onChange: (next: BrowseFilters) => void;
}) {
  const [match, setMatch] = useState<BodyMatchKind>(value.body?.match ?? 'cel');
  const bodyError = isBodyFilterError(error) ? error : null;
  const applied = (text: string, kind = match): BodyFilter | null =>
    text.trim() ? { match: kind, expression: text.trim() } : null;
  const onField = (apply: (text: string) => void) => ({
    onKeyDown: (e: React.KeyboardEvent<HTMLInputElement>) => {
      if (e.key === 'Enter') apply(e.currentTarget.value);
    },
    onBlur: (e: React.FocusEvent<HTMLInputElement>) => apply(e.currentTarget.value),
  });
  const applyFilter = (text: string) => {
    if (text.trim() !== value.filter) onChange({ ...value, filter: text.trim() });
  };
  const applyBody = (text: string, kind = match) => {
    const next = applied(text, kind);
    if (JSON.stringify(next) !== JSON.stringify(value.body)) onChange({ ...value, body: next });
  };
  return (
    <Group align="flex-start" gap="xs">
      <TextInput
        label="Filter"
        description="The broker's selector syntax, e.g. customer = 'alice' AND priority > 4"
        placeholder="every message"
        defaultValue={value.filter}
        error={value.filter && error && !bodyError ? error : undefined}
        w={360}
        {...onField(applyFilter)}
      />
      <TextInput
        label="Body filter"
        description={BODY_HINTS[match]}
        placeholder="any body"
        defaultValue={value.body?.expression ?? ''}
        error={bodyError ?? undefined}
        w={380}
        data-testid="body-filter"
        {...onField((text) => applyBody(text))}
      />
      <Select
        label="Reads the body as"
        aria-label="Body filter kind"
        data={BODY_MATCH_KINDS.map((kind) => ({ value: kind, label: MATCH_LABELS[kind] }))}
        value={match}
        allowDeselect={false}
        onChange={(kind) => {
          if (!kind) return;
          setMatch(kind as BodyMatchKind);
          if (value.body) applyBody(value.body.expression, kind as BodyMatchKind);
        }}
        w={150}
      />
    </Group>
  );
}
