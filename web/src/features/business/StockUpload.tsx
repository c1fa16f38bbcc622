import { useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { failureText } from "../../api/client";
import { Button } from "../../components/ui/button";
import { Outcome, useOutcome } from "../../components/ui/outcome";
import { uploadStockFeed } from "./api/stock";

type Report = Awaited<ReturnType<typeof uploadStockFeed>>;

/**
 * "Upload a stock feed": a local inventory feed (CSV or TSV) for the account's stores, checked row by
 * row; rows for a store that is not yours are refused, nothing is half applied.
 */
export function StockUpload() {
  const queryClient = useQueryClient();
  const outcome = useOutcome();
  const [file, setFile] = useState<File | null>(null);
  const [replace, setReplace] = useState(false);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const fileId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    outcome.clear();
    setReport(null);
    setBusy(true);
    try {
      const rep = await uploadStockFeed(file, replace);
      setReport(rep);
      outcome.setNotice(`${rep.rows} rows written${rep.removed > 0 ? `, ${rep.removed} removed` : ""}${rep.failed > 0 ? `, ${rep.failed} refused` : ""}.`);
      await queryClient.invalidateQueries({ queryKey: ["business", "stock"] });
    } catch (error) {
      outcome.setFailure(`Could not import the file: ${failureText(error)}`);
    }
    setBusy(false);
  };

  return (
    <section aria-labelledby="stock-upload-heading" className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <h2 id="stock-upload-heading" className="text-base font-semibold text-gray-900">
        Upload a stock feed
      </h2>
      <p className="text-sm text-gray-700">
        A local inventory feed (CSV or TSV with a header: <code>store_code</code>, <code>id</code> or <code>gtin</code>, <code>availability</code>, and optionally{" "}
        <code>quantity</code>, <code>price</code>, <code>sale_price</code>, <code>pickup_method</code>, <code>pickup_sla</code>) for your stores, at most 20 MB.
      </p>
      <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={fileId} className="text-sm font-medium text-gray-900">
            Feed file
          </label>
          <input id={fileId} type="file" accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values" onChange={(e) => setFile(e.target.files?.[0] ?? null)} className="text-sm" />
        </div>
        <label className="flex items-center gap-2 text-sm text-gray-900">
          <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} />
          Full feed: remove the products the file does not list for its stores
        </label>
        <Button type="submit" disabled={busy || !file}>
          Import
        </Button>
      </form>
      <Outcome {...outcome} />
      {report && report.errors.length > 0 && (
        <ul aria-label="Refused rows" className="flex flex-col gap-1 text-sm text-red-800">
          {report.errors.map((e) => (
            <li key={e.line}>
              Line {e.line}: {e.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
