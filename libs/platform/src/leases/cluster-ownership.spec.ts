import { ClusterOwnership } from './cluster-ownership';
import type { ClusterWork } from './cluster-work';
import type { OwnedClusters } from './owned-clusters';

/** A service whose connecting (`own`) the test finishes when it wants. */
class SlowOwner extends ClusterOwnership<ClusterWork> {
  protected readonly logger = { warn: () => undefined };
  protected readonly installation = { whenAlone: async () => 'installation' };
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
    await settle(); // past the installation check: connecting
    sut.finish();
    await settle();
    expect(sut.owned$.run).toHaveBeenCalled();
  });

  it('starts nothing when shut down while connecting, and lets go of what it connected', async () => {
    const sut = new SlowOwner();
    sut.onApplicationBootstrap();
    await settle(); // past the installation check: connecting
    sut.onModuleDestroy();
    await sut.onApplicationShutdown();
    sut.finish();
    await settle();
    expect(sut.owned$.run).not.toHaveBeenCalled();
    expect(sut.owned$.stop).toHaveBeenCalled();
  });

  it('connects nothing before this is the only installation on its NATS, nor once shut down', async () => {
    const sut = new SlowOwner();
    let alone = () => undefined as unknown;
    (sut as unknown as { installation: unknown }).installation = {
      whenAlone: () => new Promise((resolve) => (alone = () => resolve('installation'))),
    };
    const own = jest.spyOn(sut as unknown as { own: () => unknown }, 'own');
    sut.onApplicationBootstrap();
    await settle();
    expect(own).not.toHaveBeenCalled();
    sut.onModuleDestroy();
    await sut.onApplicationShutdown();
    alone();
    await settle();
    expect(own).not.toHaveBeenCalled();
  });
});
