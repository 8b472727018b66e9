/**
 * A directed graph drawn with React Flow and laid out by dagre: used for agencies (agents and
 * flows) and ensembles (agents and dependencies). Nodes are focusable buttons: Tab to one and
 * press Enter to select it.
 */
import { Background, Controls, MarkerType, ReactFlow, type Edge, type Node } from '@xyflow/react';
import { useMemo } from 'react';
import { layoutGraph } from '../lib/graphLayout';

export interface GraphNode {
  id: string;
  label: string;
  sublabel?: string;
  kind?: 'user' | 'entry' | 'agent' | 'script' | 'llm' | 'ensemble' | 'loop' | 'dispatch';
  active?: boolean;
  selected?: boolean;
  badge?: string;
}

export interface GraphEdge {
  source: string;
  target: string;
  label?: string;
}

const WIDTH = 170;
const HEIGHT = 56;

export function Graph({
  nodes,
  edges,
  onSelect,
  label,
}: {
  nodes: GraphNode[];
  edges: GraphEdge[];
  onSelect?: (id: string) => void;
  label: string;
}) {
  // Layout depends on the shape only, not on highlights.
  const shape = JSON.stringify([nodes.map((n) => n.id), edges.map((e) => [e.source, e.target])]);
  const positions = useMemo(() => {
    const [ids, pairs] = JSON.parse(shape) as [string[], Array<[string, string]>];
    return layoutGraph(
      ids.map((id) => ({ id, width: WIDTH, height: HEIGHT })),
      pairs.map(([source, target]) => ({ source, target })),
    );
  }, [shape]);
  const flowNodes: Node[] = nodes.map((node) => ({
    id: node.id,
    position: positions[node.id] ?? { x: 0, y: 0 },
    data: {
      label: (
        <div
          className="node-inner"
          data-testid="graph-node"
          data-node={node.id}
          data-active={node.active ? 'true' : undefined}
        >
          <span className="node-label">{node.label}</span>
          {node.sublabel ? <span className="node-sub">{node.sublabel}</span> : null}
          {node.badge ? <span className="node-badge">{node.badge}</span> : null}
        </div>
      ),
    },
    className: [
      'gnode',
      `gnode-${node.kind ?? 'agent'}`,
      node.active ? 'gnode-active' : '',
      node.selected ? 'gnode-selected' : '',
    ].join(' '),
    // Fixed dimensions: React Flow hides a node it has not measured, and a node object rebuilt on
    // every highlight change loses its measurement, so nodes blinked out while a run streamed.
    width: WIDTH,
    height: HEIGHT,
    ariaLabel: `${node.label}${node.sublabel ? `, ${node.sublabel}` : ''}`,
    draggable: false,
    connectable: false,
  }));
  const flowEdges: Edge[] = edges.map((edge) => ({
    id: `${edge.source}->${edge.target}`,
    source: edge.source,
    target: edge.target,
    ...(edge.label ? { label: edge.label } : {}),
    markerEnd: { type: MarkerType.ArrowClosed },
    className: 'gedge',
    data: { testid: 'graph-edge' },
  }));
  return (
    <div className="graph" aria-label={label} role="figure">
      <ReactFlow
        nodes={flowNodes}
        edges={flowEdges}
        fitView
        fitViewOptions={{ padding: 0.2 }}
        nodesDraggable={false}
        nodesConnectable={false}
        edgesFocusable={false}
        proOptions={{ hideAttribution: true }}
        onNodeClick={(_event, node) => onSelect?.(node.id)}
        minZoom={0.3}
        maxZoom={1.5}
      >
        <Background gap={20} size={1} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
