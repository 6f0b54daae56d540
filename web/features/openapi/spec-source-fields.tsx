import { useId, type ChangeEvent } from 'react';

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
      <fieldset className="source-choice">
        <legend>Source</legend>
        <label><input type="radio" name={`${id}-kind`} checked={kind === 'url'} onChange={() => setKind('url')} /> From a URL</label>{' '}
        <label><input type="radio" name={`${id}-kind`} checked={kind === 'text'} onChange={() => setKind('text')} /> From a file or text</label>
      </fieldset>
      {kind === 'url' ? (
        <div className="field">
          <label htmlFor={`${id}-url`}>Document URL</label>
          <input id={`${id}-url`} type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/openapi.yaml" required />
        </div>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-file`}>Document file</label>
            <input id={`${id}-file`} type="file" accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml" onChange={(e) => void readFile(e)} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-text`}>Document text (JSON or YAML)</label>
            <textarea id={`${id}-text`} rows={8} value={text} onChange={(e) => setText(e.target.value)} required />
          </div>
        </>
      )}
    </>
  );
}
