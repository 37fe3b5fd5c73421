import { Anchor, Badge, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from '../../../lib/api-client';
import { QueryState } from '../../../lib/ui/query-state';

/** The parts of the OpenAPI document this page shows; the rest is for client generators. */
const DocumentSchema = z.object({
  info: z.object({ version: z.string() }),
  tags: z.array(z.object({ name: z.string(), description: z.string() })),
  paths: z.record(
    z.string(),
    z.record(
      z.string(),
      z.object({ summary: z.string(), description: z.string(), tags: z.array(z.string()) }),
    ),
  ),
});

const METHOD_COLOUR: Record<string, string> = {
  get: 'blue',
  post: 'green',
  put: 'orange',
  patch: 'orange',
  delete: 'red',
};

/** The HTTP API, read from the gateway's own OpenAPI document: every route, what it needs, what it records. */
export function ApiReferencePage() {
  const document = useQuery({
    queryKey: ['api-reference'],
    queryFn: () => getJson('/openapi.json', DocumentSchema),
    staleTime: Infinity,
    refetchInterval: false,
    meta: { label: 'the API description' },
  });
  return (
    <Stack>
      <Title order={2}>HTTP API</Title>
      <Text size="sm" c="dimmed">
        For scripts and other tools: send an API token as <Code>Authorization: Bearer sst_…</Code>. The whole
        description, for client generators: <Anchor href="/api/v1/openapi.json">openapi.json</Anchor> (OpenAPI
        3.1).
      </Text>
      <QueryState query={document} what="API description">
        {(doc) =>
          doc.tags.map((tag) => {
            const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
              Object.entries(ops)
                .filter(([, op]) => op.tags.includes(tag.name))
                .map(([method, op]) => ({ path, method, ...op })),
            );
            if (operations.length === 0) return null;
            return (
              <Stack key={tag.name} gap="xs">
                <Title order={4}>{tag.description}</Title>
                <Table aria-label={`API: ${tag.name}`} verticalSpacing={4} fz="sm">
                  <Table.Tbody>
                    {operations.map((op) => (
                      <Table.Tr key={`${op.method} ${op.path}`}>
                        <Table.Td w={90}>
                          <Badge color={METHOD_COLOUR[op.method] ?? 'gray'} variant="light">
                            {op.method}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          <Code>{op.path}</Code>
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4}>
                            <Text size="sm">{op.summary}</Text>
                          </Group>
                          <Text size="xs" c="dimmed">
                            {op.description}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Stack>
            );
          })
        }
      </QueryState>
    </Stack>
  );
}
