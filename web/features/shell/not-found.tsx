import { NotFound } from '../../ui/states.tsx';
import { useTitle } from '../../ui/title.ts';

export default function NotFoundScreen() {
  useTitle('Not found');
  return (
    <main id="main" className="app-main">
      <NotFound />
    </main>
  );
}
