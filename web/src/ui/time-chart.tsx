import { useEffect, useRef, useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/*
 * Charts are drawn with uPlot: about 21 kB gzipped with no dependencies, fast on canvas, and kept up
 * (Chart.js is three times its size, Recharts and visx bring d3, ECharts is ten times as big). A
 * canvas says nothing to a screen reader, so each chart carries its figures as a table too. Only the
 * dashboard, webhook and meter screens import this module, so the library loads with their chunks alone.
 */

const messages = defineMessages({
  figures: { id: "ui.chart.figures", defaultMessage: "Show the figures" },
  period: { id: "ui.chart.period", defaultMessage: "Period" },
  summary: defineMessage<{ title: string; count: number }>({ id: "ui.chart.summary", defaultMessage: "Chart of {title} over {count, plural, one {# period} other {# periods}}; its figures are in the table below." }),
});

export interface ChartPoint {
  at: Date;
  value: number;
}

const HEIGHT = 160;

/**
 * A line over time with its figures in a table beside it: `format` writes a value (an amount, a
 * count, a share), `formatTime` a period's start. `emptyTop` tops the scale of a line of zeros: one
 * whole unit of what is charted (100 cents, 1 order, 100 %), not fractions of it.
 */
export function TimeChart({
  title,
  points,
  format,
  formatTime,
  emptyTop = 1,
}: {
  title: string;
  points: ChartPoint[];
  format: (value: number) => string;
  formatTime: (at: Date) => string;
  emptyTop?: number;
}) {
  const { formatMessage } = useIntl();
  const host = useRef<HTMLDivElement>(null);
  // The table is built when asked for: a dashboard of long ranges would otherwise hold thousands of cells.
  const [tableShown, setTableShown] = useState(false);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const data: uPlot.AlignedData = [points.map((point) => point.at.getTime() / 1000), points.map((point) => point.value)];
    const accent = getComputedStyle(element).getPropertyValue("--accent").trim() || "#1f4fd1";
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        series: [{}, { stroke: accent, width: 2, fill: `${accent}22` }],
        // From zero, with room above the highest value.
        scales: { y: { range: (_plot, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : emptyTop] } },
        axes: [
          { values: (_plot, splits) => splits.map((seconds) => formatTime(new Date(seconds * 1000))), space: 80 },
          { values: (_plot, splits) => splits.map(format), size: 70, space: 40 },
        ],
      },
      data,
      element,
    );
    const resized = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [points, format, formatTime, emptyTop]);

  return (
    <figure className="chart">
      <div ref={host} className="chart-canvas" role="img" aria-label={formatMessage(messages.summary, { title, count: points.length })} />
      <details className="chart-figures" onToggle={(event) => setTableShown(event.currentTarget.open)}>
        <summary>{formatMessage(messages.figures)}</summary>
        {tableShown && (
          <table>
            <thead>
              <tr>
                <th scope="col">{formatMessage(messages.period)}</th>
                <th scope="col">{title}</th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.at.getTime()}>
                  <td className="nowrap">{formatTime(point.at)}</td>
                  <td className="nowrap">{format(point.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
    </figure>
  );
}
