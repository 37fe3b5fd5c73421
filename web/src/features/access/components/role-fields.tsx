import { ROLES, type Role } from '@artemis-studio/contracts';
import { Select, TextInput } from '@mantine/core';

/** The role and the clusters it covers: the two halves of every grant, token and new user. */
export function RoleFields({
  role,
  clusters,
  onRole,
  onClusters,
  optional = false,
}: {
  role: Role | null;
  clusters: string;
  onRole: (role: Role | null) => void;
  onClusters: (clusters: string) => void;
  optional?: boolean;
}) {
  return (
    <>
      <Select
        label="Role"
        data={ROLES.map((r) => ({ value: r, label: r }))}
        value={role}
        onChange={(v) => onRole(v as Role | null)}
        clearable={optional}
        placeholder={optional ? 'none yet' : undefined}
        w={140}
      />
      <TextInput
        label="On clusters"
        description="* for all, or a name pattern such as prod-*"
        value={clusters}
        onChange={(e) => onClusters(e.currentTarget.value)}
        w={220}
      />
    </>
  );
}
