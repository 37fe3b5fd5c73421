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

/** Applied on Enter or on leaving the field, as the broker's filter is. */
const appliedOn = (apply: (text: string) => void) => ({
  onKeyDown: (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') apply(e.currentTarget.value);
  },
  onBlur: (e: React.FocusEvent<HTMLInputElement>) => apply(e.currentTarget.value),
});

/**
 * A body filter (read by the cluster's owner on each message, ADR-0038): the expression and how it
 * reads the body, its error under it.
 */
export function BodyFilterField({
  value,
  error,
  onChange,
  width = 380,
}: {
  value: BodyFilter | null;
  error: string | null;
  onChange: (next: BodyFilter | null) => void;
  width?: number;
}) {
  const [match, setMatch] = useState<BodyMatchKind>(value?.match ?? 'cel');
  const apply = (text: string, kind = match) => {
    const next = text.trim() ? { match: kind, expression: text.trim() } : null;
    if (JSON.stringify(next) !== JSON.stringify(value)) onChange(next);
  };
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <TextInput
        label="Body filter"
        description={BODY_HINTS[match]}
        placeholder="any body"
        defaultValue={value?.expression ?? ''}
        error={error ?? undefined}
        w={width}
        data-testid="body-filter"
        {...appliedOn((text) => apply(text))}
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
          if (value) apply(value.expression, kind as BodyMatchKind);
        }}
        w={150}
      />
    </Group>
  );
}

/**
 * The browse box: the broker's selector (headers and properties, applied first by the broker) and
 * a body filter, each with its error beside it.
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
  const bodyError = isBodyFilterError(error) ? error : null;
  return (
    <Group align="flex-start" gap="xs">
      <TextInput
        label="Filter"
        description="The broker's selector syntax, e.g. customer = 'alice' AND priority > 4"
        placeholder="every message"
        defaultValue={value.filter}
        error={value.filter && error && !bodyError ? error : undefined}
        w={360}
        {...appliedOn((text) => {
          if (text.trim() !== value.filter) onChange({ ...value, filter: text.trim() });
        })}
      />
      <BodyFilterField
        value={value.body}
        error={bodyError}
        onChange={(body) => onChange({ ...value, body })}
      />
    </Group>
  );
}
