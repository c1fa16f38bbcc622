import { useState, type FormEvent } from "react";
import { failureText } from "../../api/client";
import { Button } from "../../components/ui/button";
import { Field, FormError } from "../../components/ui/field";
import { submitLicenceNumber } from "./api/licence-number";

/**
 * The store's licence number: checked against the public registries we read; the store shows
 * "Licence verified" only when an active licence with that number is listed at its address.
 */
export function LicenceNumberForm({ storeId }: { storeId: number }) {
  const [number, setNumber] = useState("");
  const [answer, setAnswer] = useState<{ verified: boolean; message: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    setAnswer(null);
    try {
      setAnswer(await submitLicenceNumber(storeId, number));
    } catch (error) {
      setFailure(failureText(error));
    }
    setBusy(false);
  };
  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-labelledby={`licence-${storeId}-heading`} className="flex flex-col gap-3">
      <h3 id={`licence-${storeId}-heading`} className="text-base font-semibold text-gray-900">
        Licence
      </h3>
      <Field
        label="Licence number"
        value={number}
        maxLength={64}
        required
        onChange={(e) => setNumber(e.target.value)}
        hint="As the city or state registry lists it, e.g. 2091234. We check it against the registry at your store's address."
      />
      <div>
        <Button type="submit" variant="outline" disabled={busy || number.trim() === ""}>
          Check licence
        </Button>
      </div>
      {answer && (
        <p role="status" className={answer.verified ? "text-sm text-emerald-800" : "text-sm text-gray-800"}>
          {answer.message}
        </p>
      )}
      {failure && <FormError>{failure}</FormError>}
    </form>
  );
}
