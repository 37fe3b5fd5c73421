import { useClusters } from './api/get-clusters';

export function ClustersList() {
  const clusters = useClusters();
  if (clusters.isPending) return <p>Loading clusters…</p>;
  if (clusters.isError) return <p role="alert">Clusters unavailable: {clusters.error.message}</p>;
  if (clusters.data.length === 0) return <p>No cluster registered yet.</p>;
  return (
    <ul>
      {clusters.data.map((cluster) => (
        <li key={cluster.id}>
          {cluster.name} ({cluster.nodes.length} nodes)
        </li>
      ))}
    </ul>
  );
}
