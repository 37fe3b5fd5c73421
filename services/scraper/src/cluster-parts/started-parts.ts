import type { ClusterTarget } from '@artemis-studio/db';
import type { AnyClusterPart, OwnerRpcHandlers } from './cluster-part';
import { OwnedCluster } from './owned-cluster';

/** Serves a cluster's owner RPCs; the function it answers stops serving them. */
export type ServeOwnerRpcs = (clusterId: string, handlers: OwnerRpcHandlers) => () => void;

type Run = ReturnType<AnyClusterPart['start']>;

/**
 * Every part's work for one owned cluster: started in the parts' order, its owner RPCs (the union
 * of what the parts answer) served once each part is ready, stopped in the reverse order.
 */
export class StartedParts {
  readonly cluster: OwnedCluster;
  private readonly runs: Run[];
  private readonly letGo = new AbortController();
  private stopServing: (() => void) | null = null;
  private stopped = false;

  constructor(
    target: ClusterTarget,
    parts: readonly AnyClusterPart[],
    serve: ServeOwnerRpcs,
    private readonly log: { warn(message: string): void },
  ) {
    this.cluster = new OwnedCluster(target, this.letGo.signal);
    this.runs = parts.map((part) => part.start(this.cluster));
    const handlers = Object.assign({}, ...this.runs.map((r) => r.handlers ?? {})) as OwnerRpcHandlers;
    // Work a previous owner left (a message job it ran) ends here before this replica answers for
    // the cluster: a job started here meanwhile would otherwise be declared interrupted too.
    void Promise.allSettled(this.runs.map((r) => r.ready)).then(() => {
      if (!this.stopped) this.stopServing = serve(target.id, handlers);
    });
  }

  get target(): ClusterTarget {
    return this.cluster.target;
  }

  refresh(target: ClusterTarget): void {
    for (const run of this.runs) run.refresh?.(target);
  }

  stop(): void {
    this.stopped = true;
    this.stopServing?.();
    this.letGo.abort();
    for (const run of [...this.runs].reverse()) run.stop?.();
  }

  /** Each part let go of the cluster (`deleted`: no longer registered); a failure is said, not thrown. */
  async released(deleted: boolean): Promise<void> {
    for (const run of this.runs)
      await Promise.resolve()
        .then(() => run.released?.(deleted))
        .catch((err: Error) =>
          this.log.warn(`cluster ${this.target.name}: a part did not let go cleanly: ${err.message}`),
        );
  }
}
