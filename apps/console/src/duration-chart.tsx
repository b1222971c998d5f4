// Build durations as an inline SVG bar chart: oldest on the left. Described for screen readers
// by its title and by the table beside it, which holds the same numbers.
import type { Schemas } from './api';
import { formatMs } from './ui';

const WIDTH = 600;
const HEIGHT = 160;
const PAD = { top: 10, right: 8, bottom: 20, left: 48 };

export function wallMsOf(build: Schemas['Build']): number | null {
  const timings = build.timings as { wallMs?: number | null } | null;
  if (typeof timings?.wallMs === 'number') return timings.wallMs;
  if (build.startedAt && build.finishedAt) return Date.parse(build.finishedAt) - Date.parse(build.startedAt);
  return null;
}

export function DurationChart({ builds }: { builds: Schemas['Build'][] }) {
  const points = builds
    .map((build) => ({ build, ms: wallMsOf(build) }))
    .filter((point): point is { build: Schemas['Build']; ms: number } => point.ms !== null)
    .reverse();
  if (points.length === 0) return <p className="muted">No finished build to chart yet.</p>;
  const max = Math.max(...points.map((point) => point.ms), 1);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / points.length;
  const bar = Math.max(2, Math.min(40, slot * 0.7));
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="duration-chart-title">
        <title id="duration-chart-title">
          {`Durations of the last ${points.length} builds, oldest first; longest ${formatMs(max)}`}
        </title>
        <line
          x1={PAD.left}
          y1={PAD.top + plotHeight}
          x2={WIDTH - PAD.right}
          y2={PAD.top + plotHeight}
          className="axis"
        />
        <text x={PAD.left - 6} y={PAD.top + 8} textAnchor="end" className="tick">
          {formatMs(max)}
        </text>
        <text x={PAD.left - 6} y={PAD.top + plotHeight} textAnchor="end" className="tick">
          0
        </text>
        {points.map(({ build, ms }, i) => {
          const height = Math.max(1, (ms / max) * plotHeight);
          return (
            <rect
              key={build.id}
              x={PAD.left + i * slot + (slot - bar) / 2}
              y={PAD.top + plotHeight - height}
              width={bar}
              height={height}
              className={`bar bar-${build.status}`}
            >
              <title>{`${formatMs(ms)}, ${build.status}, ${new Date(build.createdAt).toISOString()}`}</title>
            </rect>
          );
        })}
        <text x={PAD.left} y={HEIGHT - 4} className="tick">
          oldest
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 4} textAnchor="end" className="tick">
          newest
        </text>
      </svg>
      <figcaption>Build durations (wall time). Failed builds are drawn in red.</figcaption>
    </figure>
  );
}
