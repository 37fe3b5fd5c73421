import { ClusterOwnership } from './cluster-ownership';
import type { ClusterWork, OwnedClusters } from './owned-clusters';

/** A service whose connecting (`own`) the test finishes when it wants. */
class SlowOwner extends ClusterOwnership<ClusterWork> {
  protected readonly logger = { warn: () => undefined };
  finish!: () => void;
  readonly owned$ = { run: jest.fn(async () => undefined), stop: jest.fn(async () => undefined) };
  protected own(): Promise<OwnedClusters<ClusterWork>> {
    return new Promise((resolve) => {
      this.finish = () => resolve(this.owned$ as unknown as OwnedClusters<ClusterWork>);
    });
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ClusterOwnership', () => {
  it('runs the renewals once connected', async () => {
    const sut = new SlowOwner();
    sut.onApplicationBootstrap();
    sut.finish();
    await settle();
    expect(sut.owned$.run).toHaveBeenCalled();
  });

  it('starts nothing when shut down while connecting, and lets go of what it connected', async () => {
    const sut = new SlowOwner();
    sut.onApplicationBootstrap();
    sut.onModuleDestroy();
    await sut.onApplicationShutdown();
    sut.finish();
    await settle();
    expect(sut.owned$.run).not.toHaveBeenCalled();
    expect(sut.owned$.stop).toHaveBeenCalled();
  });
});
