import { selectionProblem } from './message-job-rules';

describe('a move to the same queue on another node (stranded messages)', () => {
  it('takes the holding node and the node to move to, and nothing else', () => {
    expect(selectionProblem({ kind: 'move', node: 'node2', toNode: 'node1' })).toBeNull();
    expect(
      selectionProblem({ kind: 'move', node: 'node2', toNode: 'node1', filter: "region = 'eu'" }),
    ).toBeNull();
  });

  it.each([
    [{ kind: 'copy' as const, node: 'node2', toNode: 'node1' }, 'only a move goes to another node'],
    [{ kind: 'move' as const, toNode: 'node1' }, 'needs the node the messages are on'],
    [{ kind: 'move' as const, node: 'node1', toNode: 'node1' }, 'on that node already'],
    [{ kind: 'move' as const, node: 'node2', toNode: 'node1', to: 'other' }, "give 'toNode' alone"],
    [{ kind: 'move' as const, node: 'node2', toNode: 'node1', messageIds: ['1'] }, 'by filter, or all'],
  ])('refuses %p', (job, problem) => {
    expect(selectionProblem(job)).toContain(problem);
  });
});

describe('a paced job (a rate, a start gate, a return guard)', () => {
  it('takes a rate wherever the broker works in batches, and a gate where one queue receives', () => {
    expect(selectionProblem({ kind: 'retry', origin: 'orders', rate: 50, waitForConsumer: true })).toBeNull();
    expect(
      selectionProblem({ kind: 'move', to: 'orders', filter: 'a = 1', waitForConsumer: true }),
    ).toBeNull();
    expect(selectionProblem({ kind: 'delete', messageIds: ['1'], node: 'a', rate: 5 })).toBeNull();
    expect(selectionProblem({ kind: 'delete', filter: 'a = 1', rate: 5 })).toBeNull();
  });

  it('takes a retry by filter, or of everything, each message back to its own queue, at a rate', () => {
    expect(selectionProblem({ kind: 'retry', filter: "region = 'eu'", rate: 20 })).toBeNull();
    expect(selectionProblem({ kind: 'retry' })).toBeNull();
    expect(selectionProblem({ kind: 'retry', filter: 'a = 1', pauseOnReturns: { percent: 10 } })).toContain(
      "a return guard needs one queue ('origin')",
    );
  });

  it.each([
    [
      { kind: 'delete' as const, messageIds: ['1'], node: 'a', waitForConsumer: true },
      'a start gate has nothing to watch',
    ],
    [
      { kind: 'retry' as const, origin: 'orders', quarantine: 'q', pauseOnReturns: { percent: 10 } },
      'give a return guard to its release',
    ],
    [
      { kind: 'retry' as const, messageIds: ['1'], node: 'a', waitForConsumer: true },
      "needs one queue ('origin')",
    ],
    [{ kind: 'move' as const, node: 'b', toNode: 'a', waitForConsumer: true }, 'goes by the cluster link'],
  ])('refuses %p', (job, problem) => {
    expect(selectionProblem(job)).toContain(problem);
  });
});
