import { selectionProblem } from './message-jobs';

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
