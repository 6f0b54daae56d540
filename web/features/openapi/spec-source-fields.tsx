import { useId, type ChangeEvent } from 'react';
import { RadioGroup } from '../../ui/choices.tsx';
import { TextArea, TextField } from '../../ui/text-field.tsx';

const KINDS = [
  { value: 'url', label: 'From a URL' },
  { value: 'text', label: 'From a file or text' },
] as const;

/** Where a spec's document comes from: a URL, or its text (typed, pasted, or read from a file chosen here). */
export function SpecSourceFields({ kind, setKind, url, setUrl, text, setText }: {
  kind: 'url' | 'text';
  setKind: (kind: 'url' | 'text') => void;
  url: string;
  setUrl: (url: string) => void;
  text: string;
  setText: (text: string) => void;
}) {
  const id = useId();
  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) setText(await file.text());
  };
  return (
    <>
      <RadioGroup legend="Source" orientation="horizontal" options={KINDS} value={kind} onValueChange={setKind} />
      {kind === 'url' ? (
        <TextField label="Document URL" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/openapi.yaml" required />
      ) : (
        <>
          {/* The kit has no file field: a native one, drawn with the kit's classes. */}
          <div className="ui-field">
            <label htmlFor={`${id}-file`} className="ui-field-label">Document file</label>
            <input id={`${id}-file`} className="ui-input" type="file" accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml" onChange={(e) => void readFile(e)} />
          </div>
          <TextArea label="Document text (JSON or YAML)" rows={8} value={text} onChange={(e) => setText(e.target.value)} required />
        </>
      )}
    </>
  );
}
