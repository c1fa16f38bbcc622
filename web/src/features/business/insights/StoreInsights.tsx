import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { failureText } from "../../../api/client";
import { businessKeys } from "../../../api/keys";
import { Loaded } from "../../../components/Loaded";
import { PeriodHeading } from "../../../components/PeriodHeading";
import { FormError } from "../../../components/ui/field";
import { insightsMailOptions, setInsightsMail, storeInsightsOptions, type InsightPeriod, type StoreInsights as Report } from "../api/store-insights";
import { bars, changeLabel, METRICS, valueOf, type Metric } from "./metrics";

const PERIODS: InsightPeriod[] = [7, 30, 90];
const W = 600;
const H = 120;

/** What a store got from the locator (docs/insights.md): a chart per day and a table against the period before. */
export function StoreInsights({ storeId }: { storeId: number }) {
  const [days, setDays] = useState<InsightPeriod>(30);
  const [metric, setMetric] = useState<Metric>(METRICS[0]);
  const report = useQuery(storeInsightsOptions(storeId, days));
  return (
    <section aria-labelledby="insights-heading" className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <PeriodHeading id="insights-heading" title="Insights" periods={PERIODS} days={days} onDays={setDays} />
      <Loaded query={report} loading="Loading insights…" failed="Could not load the insights">
        {(data) => <ReportView report={data} metric={metric} onMetric={setMetric} />}
      </Loaded>
      <p className="text-xs text-gray-600">
        Counted without cookies or tracking: only totals per day are kept. Visitors are estimated per day and may be counted more than once.
      </p>
      <MailSwitch />
    </section>
  );
}

function ReportView({ report, metric, onMetric }: { report: Report; metric: Metric; onMetric: (m: Metric) => void }) {
  const values = report.series.map((d) => valueOf(d, metric));
  const total = valueOf(report.current, metric);
  const shown = bars(values, W, H).map((b, i) => ({ ...b, day: report.series[i]?.day ?? "", value: values[i] ?? 0 }));
  return (
    <>
      <label className="flex items-center gap-2 text-sm text-gray-800">
        Chart
        <select
          value={metric.key}
          onChange={(e) => onMetric(METRICS.find((m) => m.key === e.target.value) ?? METRICS[0])}
          className="rounded-md border border-gray-300 bg-white px-2 py-1"
        >
          {METRICS.map((m) => (
            <option key={m.key} value={m.key}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      <figure className="m-0">
        <svg
          viewBox={`0 0 ${W} ${H}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`${metric.label} per day, ${report.from} to ${report.to}: ${total} in all`}
          className="h-32 w-full bg-gray-50"
          data-testid="insights-chart"
        >
          {shown.map((b) => (
            <rect key={b.day} x={b.x} y={b.y} width={b.w} height={b.h} className="fill-emerald-700">
              <title>{`${b.day}: ${b.value}`}</title>
            </rect>
          ))}
        </svg>
        <figcaption className="mt-1 flex justify-between text-xs text-gray-600">
          <span>{report.from}</span>
          <span>{report.to} (UTC)</span>
        </figcaption>
      </figure>
      <table className="w-full text-sm">
        <caption className="sr-only">Totals of the last {report.days} days and of the {report.days} days before</caption>
        <thead>
          <tr className="text-left text-gray-700">
            <th scope="col" className="py-1 font-medium">
              What
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Last {report.days} days
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Before
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Change
            </th>
          </tr>
        </thead>
        <tbody>
          {METRICS.map((m) => {
            const cur = valueOf(report.current, m);
            const prev = valueOf(report.previous, m);
            return (
              <tr key={m.key} className="border-t border-gray-100" data-metric={m.key}>
                <th scope="row" className="py-1 text-left font-normal text-gray-900">
                  {m.label}
                </th>
                <td className="py-1 text-right tabular-nums">{cur}</td>
                <td className="py-1 text-right tabular-nums text-gray-700">{prev}</td>
                <td className="py-1 text-right tabular-nums text-gray-700">{changeLabel(cur, prev)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="text-sm text-gray-800">
        New reviews: <span className="tabular-nums">{report.reviews.current}</span> (the period before:{" "}
        <span className="tabular-nums">{report.reviews.previous}</span>)
      </p>
    </>
  );
}

/** The monthly summary mail's switch. */
function MailSwitch() {
  const queryClient = useQueryClient();
  const mail = useQuery(insightsMailOptions());
  const change = useMutation({
    mutationFn: setInsightsMail,
    onSuccess: (enabled) => queryClient.setQueryData(businessKeys.insightsMail, enabled),
  });
  if (mail.data === undefined) return null;
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-center gap-2 text-sm text-gray-800">
        <input type="checkbox" checked={mail.data} disabled={change.isPending} onChange={(e) => change.mutate(e.target.checked)} />
        Mail me a summary every month
      </label>
      {change.isError && <FormError>{`Could not save: ${failureText(change.error)}`}</FormError>}
    </div>
  );
}
