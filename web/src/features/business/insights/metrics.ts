import type { components } from "../../../api/schema";

export type InsightCounts = components["schemas"]["InsightCounts"];

/** A line of the owner's table and a choice of the chart: one kind, or several added up. */
export interface Metric {
  key: string;
  label: string;
  kinds: (keyof InsightCounts)[];
}

export const METRICS: [Metric, ...Metric[]] = [
  { key: "appearances", label: "Appearances in searches", kinds: ["impression"] },
  { key: "views", label: "Panel and page views", kinds: ["panel", "page"] },
  { key: "calls", label: "Calls", kinds: ["call"] },
  { key: "directions", label: "Directions", kinds: ["directions"] },
  { key: "website", label: "Website visits", kinds: ["website"] },
  { key: "online", label: "Online store visits", kinds: ["online_store"] },
  { key: "shares", label: "Shares", kinds: ["share"] },
  { key: "favourites", label: "Added to favourites", kinds: ["favourite"] },
];

/** The metric's value in a day's or a period's counts. */
export function valueOf(counts: InsightCounts, metric: Metric): number {
  return metric.kinds.reduce((sum, k) => sum + counts[k], 0);
}

/** The change from the period before, as an owner reads it: "+50%", "−20%", "new", "no change". */
export function changeLabel(current: number, previous: number): string {
  if (current === previous) return "no change";
  if (previous === 0) return "new";
  const pct = Math.round(((current - previous) / previous) * 100);
  if (pct === 0) return current > previous ? "+<1%" : "−<1%";
  return pct > 0 ? `+${pct}%` : `−${-pct}%`;
}

/** Bars of a chart in a width x height box: one per day, scaled to the busiest day (at least 1). */
export function bars(values: number[], width: number, height: number): { x: number; y: number; w: number; h: number }[] {
  const max = Math.max(1, ...values);
  const step = values.length > 0 ? width / values.length : 0;
  const w = Math.max(1, step * 0.8);
  return values.map((v, i) => {
    const h = (v / max) * height;
    return { x: i * step + (step - w) / 2, y: height - h, w, h };
  });
}
