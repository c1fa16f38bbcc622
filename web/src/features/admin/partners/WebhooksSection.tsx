import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Loaded } from "../../../components/Loaded";
import { Button } from "../../../components/ui/button";
import { Field, FormError } from "../../../components/ui/field";
import { registerWebhook, removeWebhook, webhooksOptions, type Partner, type WebhookEvent } from "./api";
import { ShownOnce, useShownOnce } from "./secrets";

const EVENTS: WebhookEvent[] = ["store.created", "store.updated", "store.closed", "stock.changed", "licence.changed", "review.published"];

/** A partner's webhooks (docs/webhooks.md): each with its last status and recent deliveries; the secret shown once. */
export function WebhooksSection({ partner }: { partner: Partner }) {
  const hooks = useQuery(webhooksOptions(partner.id));
  const [url, setUrl] = useState("");
  const [chosen, setChosen] = useState<WebhookEvent[]>([]);
  const { secret, failure, create, change } = useShownOnce(webhooksOptions(partner.id).queryKey);
  const register = (event: FormEvent) => {
    event.preventDefault();
    const reset = () => {
      setUrl("");
      setChosen([]);
    };
    void create(() => registerWebhook(partner.id, url, chosen), reset, "Could not register the webhook");
  };
  const remove = (hookId: number) => void change(() => removeWebhook(partner.id, hookId), "Could not remove the webhook");
  return (
    <section aria-label={`Webhooks of ${partner.name}`} className="mt-4 flex flex-col gap-2">
      <h4 className="font-semibold text-gray-900">Webhooks</h4>
      <Loaded query={hooks} loading="Loading webhooks…" failed="Could not load the webhooks">
        {(list) =>
          list.length === 0 ? (
            <p className="text-sm text-gray-700">No webhooks.</p>
          ) : (
            <ul className="flex flex-col gap-2 text-sm">
              {list.map((h) => (
                <li key={h.id} className="rounded border border-gray-200 p-2">
                  <p className="font-mono break-all">{h.url}</p>
                  <p className="text-gray-700">
                    {[h.events.join(", "), h.disabled ? "removed" : `last: ${h.last_status || "nothing sent yet"}`].join(" · ")}
                  </p>
                  {h.deliveries.length > 0 && (
                    <ul aria-label="Recent deliveries" className="text-xs text-gray-700">
                      {h.deliveries.map((d) => (
                        <li key={d.id}>
                          {`whd_${d.id} ${d.type}: ${d.delivered_at ? "delivered" : d.failed_at ? "failed" : "retrying"} after ${d.attempts} ${d.attempts === 1 ? "attempt" : "attempts"}${d.last_status ? ` (${d.last_status})` : ""}`}
                        </li>
                      ))}
                    </ul>
                  )}
                  {!h.disabled && (
                    <Button variant="outline" onClick={() => remove(h.id)}>
                      Remove <span className="sr-only">{h.url}</span>
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <ShownOnce what="The signing secret" secret={secret} />
      <form onSubmit={register} aria-label="New webhook" className="flex flex-col gap-2">
        <Field label="Receiver URL" hint="https only, on a public address" value={url} maxLength={2000} onChange={(e) => setUrl(e.target.value)} />
        <fieldset className="flex flex-wrap gap-3 text-sm">
          <legend className="font-medium text-gray-900">Events</legend>
          {EVENTS.map((ev) => (
            <label key={ev} className="flex items-center gap-1">
              <input type="checkbox" checked={chosen.includes(ev)} onChange={(e) => setChosen(e.target.checked ? [...chosen, ev] : chosen.filter((c) => c !== ev))} />
              {ev}
            </label>
          ))}
        </fieldset>
        <div>
          <Button type="submit">Register the webhook</Button>
        </div>
      </form>
      {failure && <FormError>{failure}</FormError>}
    </section>
  );
}
