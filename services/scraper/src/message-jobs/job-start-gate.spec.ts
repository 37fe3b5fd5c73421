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

describe('a job with a return guard', () => {
  const guarded = { pauseOnReturns: { percent: 50, withinSeconds: 60 } };

  it('pauses itself once more than the share of what it sent comes back, its account exact', async () => {
    const broker = fakeBroker(1_000);
    broker.state.killed = 7; // dead-lettered before the job: not its returns
    broker.state.bounce = 0.6;
    const { store, rows } = memoryStore();
    const sut = jobs(broker, store);
    const job = await sut.start(cluster, call(guarded), new AbortController().signal);
    await sut.whenIdle();
    const ended = rows.get(job.id)!;
    expect(ended).toEqual(
      expect.objectContaining({
        status: 'paused',
        processed: 100,
        returned: 60,
        error: '60 of the 100 messages sent in the last 60 s came back (more than 50%)',
      }),
    );
    // Sent, returned and left agree with the broker: 1,000 - 100 + 60 are in the queue.
    expect(broker.state.depth).toBe(960);
  });

  it('resumes from where it paused once its consumer takes them, its counts running on', async () => {
    const broker = fakeBroker(1_000);
    broker.state.bounce = 0.6;
    const { store, rows } = memoryStore();
    const sut = jobs(broker, store);
    const job = await sut.start(cluster, call(guarded), new AbortController().signal);
    await sut.whenIdle();
    expect(rows.get(job.id)).toEqual(expect.objectContaining({ status: 'paused', resumable: true }));
    broker.state.bounce = 0; // the consumer is fixed
    const resumed = await sut.resume(
      cluster,
      { clusterId: job.clusterId, jobId: job.id, requestedBy: 'second' },
      new AbortController().signal,
    );
    // Planned again over what is left (960, the 60 that came back among them) on top of what it did.
    expect(resumed).toEqual(
      expect.objectContaining({
        status: 'running',
        resumes: 1,
        error: null,
        planned: { count: 1_060, atLeast: false },
      }),
    );
    await sut.whenIdle();
    expect(rows.get(job.id)).toEqual(
      expect.objectContaining({ status: 'done', processed: 1_060, returned: 60, resumes: 1 }),
    );
    expect(broker.state.depth).toBe(0);
    expect(broker.state.moved).toBe(1_000);
    // Done is done: a second resume is refused and changes nothing.
    await expect(
      sut.resume(
        cluster,
        { clusterId: job.clusterId, jobId: job.id, requestedBy: 'x' },
        new AbortController().signal,
      ),
    ).rejects.toThrow('only a paused job resumes; this one is done');
  });

  it('runs to the end when what comes back stays under the share', async () => {
    const broker = fakeBroker(250);
    broker.state.bounce = 0.2;
    const { store, rows } = memoryStore();
    const sut = jobs(broker, store);
    const job = await sut.start(cluster, call(guarded), new AbortController().signal);
    await sut.whenIdle();
    expect(rows.get(job.id)).toEqual(expect.objectContaining({ status: 'done' }));
    expect(rows.get(job.id)!.returned).toBeGreaterThan(0);
  });
});
