import { useState, type FormEvent } from 'react';
import { ErrorNote } from '../../ui/states.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { configurationFields, valueOfField, type ConfigurationField } from './schema-fields.ts';
import { Button } from '../../ui/button.tsx';
import { Select } from '../../ui/select.tsx';

/**
 * A configuration form built from the integration's configuration schema (properties with a type, `enum`,
 * `required`), for integrations without a ContentKit configuration component. The server checks it again.
 */
export function SchemaConfiguration({ schema, configuration, save }: { schema: Record<string, unknown>; configuration: Record<string, unknown>; save: (configuration: Record<string, unknown>) => Promise<unknown> }) {
  const fields = configurationFields(schema);
  const [values, setValues] = useState<Record<string, string | boolean>>(() => Object.fromEntries(fields.map((f) => [f.name, f.type === 'boolean' ? configuration[f.name] === true : configuration[f.name] === undefined || configuration[f.name] === null ? '' : String(configuration[f.name])])));
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  if (fields.length === 0) return <p>This integration needs no configuration.</p>;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    const next: Record<string, unknown> = { ...configuration };
    for (const field of fields) {
      const value = valueOfField(field, values[field.name]!);
      if (value === undefined) delete next[field.name];
      else next[field.name] = value;
    }
    try {
      await save(next);
      setSaved(true);
    } catch (e) {
      setError(e);
    }
  };
  const set = (field: ConfigurationField, value: string | boolean) => setValues({ ...values, [field.name]: value });
  return (
    <form onSubmit={submit}>
      {fields.map((field) =>
        field.type === 'boolean' ? (
          <label key={field.name} className="ck-choice"><input type="checkbox" checked={values[field.name] === true} onChange={(e) => set(field, e.target.checked)} /> {field.title}</label>
        ) : field.choices ? (
          <Select
            key={field.name}
            label={field.title}
            hint={field.description}
            placeholder="Choose…"
            options={field.choices.map((choice) => ({ value: choice, label: choice }))}
            value={values[field.name] ? String(values[field.name]) : undefined}
            onValueChange={(choice) => set(field, choice)}
          />
        ) : (
          <TextField key={field.name} label={field.title} hint={field.description} required={field.required} type={field.type === 'string' ? 'text' : 'number'}
            value={String(values[field.name])} onChange={(e) => set(field, e.target.value)} />
        ),
      )}
      <Button variant="primary" type="submit">Save configuration</Button>
      {saved ? <span role="status"> Saved.</span> : null}
      <ErrorNote error={error} />
    </form>
  );
}
