import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";
import { Loaded } from "../../../components/Loaded";

/** GET admin/partners/{id}/report: the widget's counts of the last 12 months (docs/embed.md). */
export const partnerReportOptions = (id: string) =>
  queryOptions({
    queryKey: adminKeys.partnerReport(id),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/admin/partners/{id}/report", { params: { path: { id }, query: { months: 12 } }, credentials: "include", signal })),
  });

const COLUMNS = [
  ["views", "Views"],
  ["searches", "Searches"],
  ["stores_shown", "Stores shown"],
  ["panels", "Stores opened"],
  ["directions", "Directions"],
  ["buy", "Buy clicks"],
] as const;

const monthName = (month: string) => new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** /admin → Partners → a partner: the widget's monthly report (views, searches, stores shown, clicks to directions and to buy). */
export function PartnerReport({ partnerId }: { partnerId: string }) {
  const report = useQuery(partnerReportOptions(partnerId));
  return (
    <section aria-labelledby={`partner-report-${partnerId}`} className="flex flex-col gap-2">
      <h3 id={`partner-report-${partnerId}`} className="text-base font-semibold text-gray-900">
        Monthly report
      </h3>
      <Loaded query={report} loading="Loading the report…" failed="Could not load the report">
        {(data) => (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">The widget of {data.partner}, month by month</caption>
              <thead>
                <tr className="border-b border-gray-200 text-gray-700">
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Month
                  </th>
                  {COLUMNS.map(([key, label]) => (
                    <th key={key} scope="col" className="py-1 pr-3 text-right font-medium">
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.months.map((m) => (
                  <tr key={m.month} className="border-b border-gray-100">
                    <th scope="row" className="py-1 pr-3 font-normal">
                      {monthName(m.month)}
                    </th>
                    {COLUMNS.map(([key]) => (
                      <td key={key} className="py-1 pr-3 text-right tabular-nums">
                        {m[key].toLocaleString("en-US")}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
    </section>
  );
}
