import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { ApiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { blockSpaces, Field, FormError } from "../../components/ui/field";
import type { Customer } from "../../lib/session";
import { formatPhone, normalizePhone, phoneInputFilter } from "../../lib/phone";
import { toast } from "../../lib/toast";
import { updateMe } from "./api/update-me";
import { PASSWORD_FAILED, PASSWORD_UPDATED } from "./messages";
import {
  nameSchema,
  passwordSchema,
  phoneSchema,
  type NameValues,
  type PasswordValues,
  type PhoneValues,
} from "./schemas";

interface FormProps {
  customer: Customer;
  /** The saved customer; the form closes. */
  onSaved: (customer: Customer) => void;
  /** Closes the form without a change. */
  onDone: () => void;
}

/** Name: no call when unchanged; a failed save is only logged. */
export function NameForm({ customer, onSaved, onDone }: FormProps) {
  const { register, handleSubmit, formState } = useForm<NameValues>({
    resolver: zodResolver(nameSchema),
    defaultValues: { first_name: customer.first_name, last_name: customer.last_name },
  });
  const { errors, isSubmitting } = formState;
  const onSubmit = async (values: NameValues) => {
    const first_name = values.first_name.trim();
    const last_name = values.last_name.trim();
    if (first_name === customer.first_name && last_name === customer.last_name) return onDone();
    try {
      onSaved(await updateMe({ first_name, last_name }));
    } catch (error) {
      console.error(error);
    }
  };
  return (
    <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="flex flex-col gap-3">
      <Field label="First name" autoComplete="given-name" autoFocus error={errors.first_name?.message} {...register("first_name")} />
      <Field label="Last name" autoComplete="family-name" error={errors.last_name?.message} {...register("last_name")} />
      <Button type="submit" className="self-start" disabled={isSubmitting}>
        Save changes
      </Button>
    </form>
  );
}

/**
 * Phone: typed as people write it ("(212) 555-0199"), checked and stored as at sign-up; no call
 * when it is the same number; errors are only logged.
 */
export function PhoneForm({ customer, onSaved, onDone }: FormProps) {
  const { register, handleSubmit, formState } = useForm<PhoneValues, unknown, { phone: string }>({
    resolver: zodResolver(phoneSchema),
    defaultValues: { phone: formatPhone(customer.phone) },
  });
  const { errors, isSubmitting } = formState;
  const phone = register("phone");
  const onSubmit = async ({ phone: value }: { phone: string }) => {
    if (value === (normalizePhone(customer.phone).phone ?? customer.phone)) return onDone();
    try {
      onSaved(await updateMe({ phone: value }));
    } catch (error) {
      console.error(error);
    }
  };
  return (
    <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="flex flex-col gap-3">
      <Field
        label="Phone"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        autoFocus
        error={errors.phone?.message}
        {...phone}
        onChange={(e) => {
          e.target.value = phoneInputFilter(e.target.value);
          void phone.onChange(e);
        }}
      />
      <Button type="submit" className="self-start" disabled={isSubmitting}>
        Save changes
      </Button>
    </form>
  );
}

const PASSWORD_FIELDS = [
  ["old_password", "Old password", "current-password"],
  ["new_password", "New password", "new-password"],
  ["confirm_password", "Confirm new password", "new-password"],
] as const satisfies readonly (readonly [keyof PasswordValues, string, string])[];

/**
 * Password: the server checks the old password in the same call; spaces are blocked on key press.
 * Outcome in the app's toast: "Password updated" or the failure text, with the server's reason under the form.
 */
export function PasswordForm({ onSaved, onDone }: FormProps) {
  const { register, handleSubmit, formState } = useForm<PasswordValues>({
    resolver: zodResolver(passwordSchema),
    defaultValues: { old_password: "", new_password: "", confirm_password: "" },
  });
  const { errors, isSubmitting } = formState;
  const [failure, setFailure] = useState<string | null>(null);
  const onSubmit = async (values: PasswordValues) => {
    if (values.new_password === values.old_password) return onDone();
    setFailure(null);
    let saved: Customer;
    try {
      saved = await updateMe({ password: values.new_password, old_password: values.old_password });
    } catch (error) {
      console.error(error);
      if (error instanceof ApiError && error.status === 400) setFailure(error.message); // e.g. a too common password
      toast.error(PASSWORD_FAILED);
      return;
    }
    toast.success(PASSWORD_UPDATED);
    onSaved(saved);
  };
  return (
    <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="flex flex-col gap-3">
      {PASSWORD_FIELDS.map(([name, label, autoComplete]) => (
        <Field
          key={name}
          label={label}
          type="password"
          autoComplete={autoComplete}
          autoFocus={name === "old_password"}
          onKeyDown={blockSpaces}
          error={errors[name]?.message}
          {...register(name)}
        />
      ))}
      {failure && <FormError>{failure}</FormError>}
      <Button type="submit" className="self-start" disabled={isSubmitting}>
        Save changes
      </Button>
    </form>
  );
}
