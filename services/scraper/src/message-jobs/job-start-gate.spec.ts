import { cluster, call, fakeBroker, jobs, memoryStore } from './message-jobs.fixture';

const until = async (what: () => boolean) => {
  for (let i = 0; i < 1_000 && !what(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  if (!what()) throw new Error('never happened');
};

describe('a job with a start gate', () => {
  it('waits while the queue it sends to has no consumer, says why, and goes once one comes', async () => {
    const broker = fakeBroker(250);
    broker.state.consumers = 0;
    const { store, rows, waits } = memoryStore();
    const sut = jobs(broker, store);
    const job = await sut.start(cluster, call({ waitForConsumer: true }), new AbortController().signal);

    await until(() => rows.get(job.id)?.waiting !== null);
    expect(rows.get(job.id)?.waiting).toBe('no consumer on elsewhere on a');
    expect(broker.state.moved).toBe(0);

    broker.state.paused = true;
    broker.state.consumers = 1;
    await until(() => rows.get(job.id)?.waiting === 'elsewhere is paused on a');
    broker.state.paused = false;
    await sut.whenIdle();

    expect(rows.get(job.id)).toEqual(
      expect.objectContaining({ status: 'done', processed: 250, waiting: null }),
    );
    expect(waits).toEqual(['no consumer on elsewhere on a', 'elsewhere is paused on a', null]);
  });

  it('can be cancelled while it waits, having moved nothing', async () => {
    const broker = fakeBroker(250);
    broker.state.consumers = 0;
    const { store, rows, cancel } = memoryStore();
    const sut = jobs(broker, store);
    const job = await sut.start(cluster, call({ waitForConsumer: true }), new AbortController().signal);
    await until(() => rows.get(job.id)?.waiting !== null);
    cancel();
    await sut.whenIdle();
    expect(rows.get(job.id)).toEqual(expect.objectContaining({ status: 'cancelled', processed: 0 }));
    expect(broker.state.depth).toBe(250);
  });

  it('reads nothing more for a job without one', async () => {
    const broker = fakeBroker(250);
    broker.state.consumers = 0;
    const { store, rows, waits } = memoryStore();
    const sut = jobs(broker, store);
    const job = await sut.start(cluster, call({}), new AbortController().signal);
    await sut.whenIdle();
    expect(rows.get(job.id)).toEqual(expect.objectContaining({ status: 'done', processed: 250 }));
    expect(waits).toEqual([]);
  });
});
