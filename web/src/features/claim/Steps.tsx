import type { ReactNode } from "react";
import type { UseFormRegister } from "react-hook-form";
import { Field } from "../../components/ui/field";
import type { ClaimValues } from "./schema";

type Register = UseFormRegister<ClaimValues>;

export const CATEGORIES = ["Vape shop", "Smoke shop", "Tobacco shop", "CBD store", "Convenience store", "Other"];

export function NameStep({ register }: { register: Register }) {
  return <Field label="Business name" autoComplete="organization" autoFocus required {...register("business_name")} />;
}

export function EmailStep({ register }: { register: Register }) {
  return <Field label="Email" type="email" autoComplete="email" autoFocus required {...register("email")} />;
}

export function PhoneStep({ register }: { register: Register }) {
  return <Field label="Phone" type="tel" autoComplete="tel" autoFocus required {...register("phone")} />;
}

/** Step 4; `pin` is the owner's pin section (PinSection), placed before the terms notice. */
export function BusinessStep({ register, pin }: { register: Register; pin?: ReactNode }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field label="Country" autoComplete="country-name" autoFocus required {...register("country")} />
      <Field label="State (optional)" autoComplete="address-level1" {...register("state")} />
      <Field label="City" autoComplete="address-level2" required {...register("city")} />
      <Field label="Postal code" autoComplete="postal-code" required {...register("postal_code")} />
      <Field label="Address" autoComplete="address-line1" required className="sm:col-span-2" {...register("address1")} />
      <div className="flex flex-col gap-1">
        <label htmlFor="claim-category" className="text-sm font-medium text-gray-900">
          Category (optional)
        </label>
        <select
          id="claim-category"
          className="rounded-md border border-gray-400 bg-white px-3 py-2 text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-emerald-700"
          {...register("category")}
        >
          <option value="">Choose a category</option>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      <Field label="Web address (optional)" type="url" inputMode="url" autoComplete="url" {...register("website")} />
      <div className="flex flex-col gap-1 sm:col-span-2">
        <label htmlFor="claim-hours" className="text-sm font-medium text-gray-900">
          Working hours (optional)
        </label>
        <textarea
          id="claim-hours"
          rows={3}
          placeholder="Mon-Fri 9:00-18:00, Sat 10:00-16:00"
          className="rounded-md border border-gray-400 px-3 py-2 text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-emerald-700"
          {...register("working_hours")}
        />
      </div>
      <Field label="Licence number (optional)" hint={LICENCE_HINT} maxLength={64} {...register("licence_number")} />
      <div className="flex flex-col gap-1">
        <label htmlFor="claim-adult-only" className="text-sm font-medium text-gray-900">
          Who may enter
        </label>
        <select
          id="claim-adult-only"
          className="rounded-md border border-gray-400 bg-white px-3 py-2 text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-emerald-700"
          {...register("adult_only")}
        >
          <option value="">Everyone</option>
          <option value="yes">Adults only (an adult-only store)</option>
        </select>
      </div>
      <ServiceHours register={register} />
      {pin}
      <p className="text-sm text-gray-700 sm:col-span-2">
        By clicking Add business you confirm that you are authorised to represent this business and agree to the Terms of
        Service. Claimed pages are reviewed by moderators before they appear.
      </p>
    </div>
  );
}

const LICENCE_HINT =
  "Your retail licence number, e.g. a NYC DCWP licence. We check it with the public registry when the claim is approved.";

/** The claim's free-text hours of each service, read like the working hours. */
export const SERVICE_HOURS_FIELDS = [
  { name: "delivery_hours", label: "Delivery hours (optional)" },
  { name: "curbside_pickup_hours", label: "Curbside pickup hours (optional)" },
  { name: "online_order_hours", label: "Online ordering hours (optional)" },
] as const;

/** Hours of delivery, curbside pickup and online ordering, folded away: most stores' services follow their hours. */
function ServiceHours({ register }: { register: Register }) {
  return (
    <details className="rounded-md border border-gray-200 px-3 py-2 sm:col-span-2">
      <summary className="cursor-pointer text-sm font-medium text-gray-900">
        Delivery, curbside pickup and online ordering hours (optional)
      </summary>
      <p className="mt-2 text-xs text-gray-600">Only for a service with hours of its own; otherwise it follows your working hours.</p>
      <div className="mt-2 grid gap-3">
        {SERVICE_HOURS_FIELDS.map((f) => (
          <Field key={f.name} label={f.label} maxLength={1000} placeholder="Mon-Fri 11:00-20:00" {...register(f.name)} />
        ))}
      </div>
    </details>
  );
}

export function PasswordStep({ register }: { register: Register }) {
  return (
    <Field
      label="Password"
      type="password"
      autoComplete="new-password"
      autoFocus
      required
      hint="You will sign in to the store dashboard with your email and this password (at least 8 characters)."
      {...register("password")}
    />
  );
}
