import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { Loaded } from "../../../components/Loaded";
import { PeriodHeading } from "../../../components/PeriodHeading";
import { Button } from "../../../components/ui/button";
import { demandCsvUrl, demandOptions, type Demand } from "../api/demand";
import type { HeatField } from "./heat";
import { useSignedOutOn } from "../unauthorized";

const DemandMap = lazy(() => import("./DemandMap"));

const PERIODS = [7, 30, 90, 365];

const FILTER_LABELS: Record<string, string> = {
  is_delivery_available: "Delivery",
  is_order_online_available: "Order online",
  is_curbside_pickup_available: "Curbside pickup",
  is_open_now: "Open now",
  is_licence_verified: "Licence verified",
  available_now: "Available now",
};

/** /admin "Demand": where shoppers searched and found nothing (docs/insights.md). */
export function DemandPanel({ onUnauthorized }: { onUnauthorized: () => void }) {
  const [days, setDays] = useState(30);
  const [field, setField] = useState<HeatField>("zero_results");
  const demand = useQuery(demandOptions(days));
  useSignedOutOn([demand.error], onUnauthorized);
  return (
    <section aria-labelledby="demand-heading" className="flex flex-col gap-4">
      <PeriodHeading id="demand-heading" title="Demand" periods={PERIODS} days={days} onDays={setDays} />
      <Loaded query={demand} loading="Loading demand…" failed="Could not load the demand">
        {(data) => <DemandView data={data} field={field} onField={setField} />}
      </Loaded>
    </section>
  );
}

function DemandView({ data, field, onField }: { data: Demand; field: HeatField; onField: (f: HeatField) => void }) {
  const [noMap, setNoMap] = useState(false);
  return (
    <>
      <dl className="grid grid-cols-3 gap-2 text-sm">
        <Figure label="Searches" value={data.searches} />
        <Figure label="With zero results" value={data.zero_results} />
        <Figure label="Visitors (estimated)" value={data.visitors} />
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <div role="group" aria-label="Map shows" className="flex gap-1">
          <Button variant="chip" aria-pressed={field === "zero_results"} onClick={() => onField("zero_results")}>
            Zero-result searches
          </Button>
          <Button variant="chip" aria-pressed={field === "searches"} onClick={() => onField("searches")}>
            All searches
          </Button>
        </div>
        <a href={demandCsvUrl(data.days)} download className="ml-auto text-sm font-medium text-emerald-800 underline">
          Export CSV
        </a>
      </div>
      <Suspense fallback={<div className="h-80 w-full rounded-md bg-gray-100" />}>
        {noMap ? (
          <p className="text-sm text-gray-700">The map could not start in this browser; the lists below hold the same data.</p>
        ) : (
          <DemandMap cells={data.cells} field={field} onError={() => setNoMap(true)} />
        )}
      </Suspense>
      <div className="grid gap-4 md:grid-cols-2">
        <Areas title="Top places by zero-result searches" areas={data.places} empty="No search found nothing." />
        <Areas title="Top postal codes by zero-result searches" areas={data.postal_codes} empty="No search found nothing in a US ZIP code." />
      </div>
      <section aria-labelledby="filters-heading">
        <h3 id="filters-heading" className="text-sm font-semibold text-gray-900">
          Filters most used
        </h3>
        {data.filters.length === 0 ? (
          <p className="text-sm text-gray-700">No search used a filter.</p>
        ) : (
          <ul className="text-sm">
            {data.filters.map((f) => (
              <li key={f.filter}>
                {FILTER_LABELS[f.filter] ?? f.filter}: {f.searches}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-md border border-gray-200 bg-white p-2">
      <dt className="text-gray-700">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums text-gray-900">{value}</dd>
    </div>
  );
}

function Areas({ title, areas, empty }: { title: string; areas: Demand["places"]; empty: string }) {
  const id = title.toLowerCase().replace(/[^a-z]+/g, "-");
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="text-sm font-semibold text-gray-900">
        {title}
      </h3>
      {areas.length === 0 ? (
        <p className="text-sm text-gray-700">{empty}</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-gray-700">
              <th scope="col" className="font-medium">
                Where
              </th>
              <th scope="col" className="text-right font-medium">
                Zero results
              </th>
              <th scope="col" className="text-right font-medium">
                Searches
              </th>
            </tr>
          </thead>
          <tbody>
            {areas.map((a) => (
              <tr key={`${a.name}|${a.region ?? ""}`} className="border-t border-gray-100">
                <th scope="row" className="text-left font-normal">
                  {a.name}
                  {a.region ? <span className="text-gray-600">, {a.region}</span> : null}
                </th>
                <td className="text-right tabular-nums">{a.zero_results}</td>
                <td className="text-right tabular-nums">{a.searches}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
