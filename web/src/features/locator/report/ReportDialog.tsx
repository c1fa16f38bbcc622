import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogTitle } from "../../../components/ui/dialog";
import { reportStore, type ReportPayload } from "../api/report-store";
import { NOTE_MAX, NOTE_TOO_LONG, REASON_REQUIRED, REPORT_REASONS } from "./reasons";

/**
 * "Report a problem": the shopper picks what is wrong and may add a note. Loaded only when
 * opened, so the locator's initial JavaScript does not carry it.
 */
export default function ReportDialog({
  storeId,
  storeName,
  onClose,
  onSent,
}: {
  storeId: number;
  storeName: string;
  onClose: () => void;
  onSent: (message: string) => void;
}) {
  const [reason, setReason] = useState<ReportPayload["reason"] | "">("");
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const send = useMutation({
    mutationFn: (payload: ReportPayload) => reportStore(storeId, payload),
    onSuccess: (data) => onSent(data.message),
    onError: (e) => setError(e instanceof Error ? e.message : "Could not send the report"),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason === "") return setError(REASON_REQUIRED);
    if (note.trim().length > NOTE_MAX) return setError(NOTE_TOO_LONG);
    setError("");
    send.mutate({ reason, note: note.trim() });
  };

  return (
    <Dialog onClose={onClose}>
      <DialogTitle>Report a problem</DialogTitle>
      <p className="mt-1 text-sm text-gray-700">What is wrong with {storeName}?</p>
      <form onSubmit={submit} noValidate className="mt-4 flex flex-col gap-4">
        <fieldset className="flex flex-col gap-2">
          <legend className="sr-only">What is wrong</legend>
          {REPORT_REASONS.map((r, i) => (
            <label key={r.value} className="flex items-center gap-2 text-sm text-gray-900">
              <input
                type="radio"
                name="reason"
                value={r.value}
                checked={reason === r.value}
                onChange={() => setReason(r.value)}
                data-autofocus={i === 0 ? "" : undefined}
                className="size-4 accent-emerald-700"
              />
              {r.label}
            </label>
          ))}
        </fieldset>
        <label className="flex flex-col gap-1 text-sm font-medium text-gray-900">
          Note (optional)
          <textarea
            value={note}
            onChange={(e) => setNote(e.target.value)}
            rows={3}
            maxLength={NOTE_MAX + 100}
            aria-describedby="report-note-count"
            className="rounded-md border border-gray-300 p-2 font-normal"
          />
          <span id="report-note-count" className="text-xs font-normal text-gray-600">
            {note.trim().length}/{NOTE_MAX}
          </span>
        </label>
        <p role="alert" className="text-sm text-red-700 empty:hidden">
          {error}
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={send.isPending}>
            Send report
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
