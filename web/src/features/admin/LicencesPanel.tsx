import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { failureText } from "../../api/client";
import { adminKeys } from "../../api/keys";
import type { paths } from "../../api/schema";
import { Button } from "../../components/ui/button";
import { Field, FormError } from "../../components/ui/field";
import { Loaded } from "../../components/Loaded";
import { Notice } from "../../components/ui/outcome";
import {
  createStoreFromRow,
  decideMatch,
  importRegistry,
  licenceQueueOptions,
  licenceStatusOptions,
  pickStore,
  unmatchedOptions,
  type LicenceSource,
} from "./api/licences";
import { useSignedOutOn } from "./unauthorized";

const SOURCES: LicenceSource[] = ["nyc-dcwp", "nys-tobacco-vendors", "philadelphia-tobacco-permits", "fda-compliance-checks"];

/**
 * /admin "Licences" (docs/licences.md): the registries' status, the upload of a registry file, the
 * doubtful matches (accept / reject / pick another store) and the licensed dealers without a store
 * near a place, each one step from an unpublished store.
 */
export function LicencesPanel({ onUnauthorized }: { onUnauthorized: () => void }) {
  const queryClient = useQueryClient();
  const status = useQuery(licenceStatusOptions());
  const queue = useQuery(licenceQueueOptions());
  const [notice, setNotice] = useState("");
  useSignedOutOn([status.error, queue.error], onUnauthorized);
  const done = (message: string) => {
    setNotice(message);
    void queryClient.invalidateQueries({ queryKey: adminKeys.licences });
  };
  return (
    <div className="flex flex-col gap-6">
      <Notice notice={notice} />
      <section aria-labelledby="registries-heading" className="flex flex-col gap-3">
        <h2 id="registries-heading" className="text-base font-semibold text-gray-900">
          Registries
        </h2>
        <Loaded query={status} loading="Loading registries…" failed="Could not load the registries">
          {(data) => (
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="text-gray-700">
                  <th scope="col">Source</th>
                  <th scope="col">File date</th>
                  <th scope="col">Rows</th>
                  <th scope="col">Matched</th>
                  <th scope="col">Ambiguous</th>
                  <th scope="col">Unmatched</th>
                </tr>
              </thead>
              <tbody>
                {data.sources.map((s) => (
                  <tr key={s.source} className="border-t border-gray-200">
                    <th scope="row" className="py-1 font-medium" title={s.title}>
                      {s.source}
                    </th>
                    <td>{s.file_date || "never imported"}</td>
                    <td>{s.rows}</td>
                    <td>{s.matched}</td>
                    <td>{s.ambiguous}</td>
                    <td>{s.unmatched}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Loaded>
        <UploadForm onDone={done} />
      </section>
      <section aria-labelledby="matches-heading" className="flex flex-col gap-3">
        <h2 id="matches-heading" className="text-base font-semibold text-gray-900">
          Doubtful matches
        </h2>
        <Loaded query={queue} loading="Loading matches…" failed="Could not load the matches">
          {(data) =>
            data.matches.length === 0 ? (
              <p className="text-sm text-gray-700">No match waits for a decision.</p>
            ) : (
              <ul className="flex flex-col gap-3">
                {data.matches.map((m) => (
                  <MatchItem key={m.match_id} match={m} onDone={done} />
                ))}
              </ul>
            )
          }
        </Loaded>
      </section>
      <Unmatched onDone={done} />
    </div>
  );
}

function UploadForm({ onDone }: { onDone: (message: string) => void }) {
  const [source, setSource] = useState<LicenceSource>("nyc-dcwp");
  const [date, setDate] = useState(() => new Date().toISOString().slice(0, 10));
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: () => importRegistry(source, date, file as File),
    onSuccess: (r) =>
      onDone(`${r.source} ${r.file_date}: ${r.rows} rows, ${r.errors.length} bad; ${r.sure} matched, ${r.doubtful} ambiguous, ${r.unmatched} unmatched.`),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) upload.mutate();
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Upload a registry file">
      <label className="flex flex-col gap-1 text-sm font-medium text-gray-900">
        Source
        <select value={source} onChange={(e) => setSource(e.target.value as LicenceSource)} className="rounded-md border border-gray-400 px-2 py-2">
          {SOURCES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <Field label="File date" type="date" value={date} onChange={(e) => setDate(e.target.value)} required />
      <label className="flex flex-col gap-1 text-sm font-medium text-gray-900">
        Registry file (CSV or JSON)
        <input type="file" accept=".csv,.json,text/csv,application/json" onChange={(e) => setFile(e.target.files?.[0] ?? null)} required />
      </label>
      <Button type="submit" disabled={!file || upload.isPending}>
        Upload
      </Button>
      {upload.isError && <FormError>{`Could not import the file: ${failureText(upload.error)}`}</FormError>}
      {upload.data && upload.data.errors.length > 0 && (
        <ul className="w-full text-sm text-red-800" aria-label="Rows refused">
          {upload.data.errors.slice(0, 50).map((e) => (
            <li key={e.line}>{`Line ${e.line}: ${e.message}`}</li>
          ))}
        </ul>
      )}
    </form>
  );
}

type Match = paths["/admin/licences/matches"]["get"]["responses"]["200"]["content"]["application/json"]["matches"][number];

function MatchItem({ match, onDone }: { match: Match; onDone: (message: string) => void }) {
  const [other, setOther] = useState("");
  const act = useMutation({
    mutationFn: (what: "accept" | "reject" | "pick") =>
      what === "pick" ? pickStore(match.row_id, Number(other)) : decideMatch(match.match_id, what),
    onSuccess: (_, what) => onDone(what === "reject" ? "Match rejected." : "Match accepted: the store shows the licence."),
  });
  return (
    <li className="rounded-md border border-gray-200 bg-white p-3 text-sm">
      <p className="font-medium text-gray-900">{`${match.kind} #${match.number} (${match.status}) · ${match.name}`}</p>
      <p className="text-gray-700">{`Registry: ${match.address}, ${match.city} ${match.postal_code}`}</p>
      <p className="text-gray-700">{`Store ${match.store_id}: ${match.store_name}, ${match.store_address} ${match.store_postal_code} · confidence ${match.confidence.toFixed(2)}`}</p>
      <div className="mt-2 flex flex-wrap items-end gap-2">
        <Button onClick={() => act.mutate("accept")} disabled={act.isPending}>
          Accept
        </Button>
        <Button variant="outline" onClick={() => act.mutate("reject")} disabled={act.isPending}>
          Reject
        </Button>
        <Field label="Another store's id" inputMode="numeric" value={other} onChange={(e) => setOther(e.target.value)} className="w-40" />
        <Button variant="outline" onClick={() => act.mutate("pick")} disabled={act.isPending || !/^\d+$/.test(other)}>
          Pick this store
        </Button>
      </div>
      {act.isError && <FormError>{failureText(act.error)}</FormError>}
    </li>
  );
}

function Unmatched({ onDone }: { onDone: (message: string) => void }) {
  const [lat, setLat] = useState("");
  const [lon, setLon] = useState("");
  const [place, setPlace] = useState<{ latitude: number; longitude: number; radius: number } | null>(null);
  const rows = useQuery(unmatchedOptions(place));
  const create = useMutation({
    mutationFn: createStoreFromRow,
    onSuccess: (r) => onDone(`Unpublished store ${r.store_id} created from the registry row; publish it after review.`),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPlace({ latitude: Number(lat), longitude: Number(lon), radius: 10 });
  };
  return (
    <section aria-labelledby="unmatched-heading" className="flex flex-col gap-3">
      <h2 id="unmatched-heading" className="text-base font-semibold text-gray-900">
        Licensed dealers without a store
      </h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <Field label="Latitude" inputMode="decimal" value={lat} onChange={(e) => setLat(e.target.value)} required className="w-36" />
        <Field label="Longitude" inputMode="decimal" value={lon} onChange={(e) => setLon(e.target.value)} required className="w-36" />
        <Button type="submit">Find within 10 miles</Button>
      </form>
      {rows.isError && <FormError>{failureText(rows.error)}</FormError>}
      {create.isError && <FormError>{`Could not create the store: ${failureText(create.error)}`}</FormError>}
      {rows.data &&
        (rows.data.rows.length === 0 ? (
          <p className="text-sm text-gray-700">Every licensed dealer near here has a store.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {rows.data.rows.map((r) => (
              <li key={r.row_id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-gray-200 bg-white p-3 text-sm">
                <span>{`${r.name} · ${r.address}, ${r.city} ${r.postal_code} · ${r.kind} #${r.number}`}</span>
                <Button variant="outline" onClick={() => create.mutate(r.row_id)} disabled={create.isPending}>
                  Create unpublished store
                </Button>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
