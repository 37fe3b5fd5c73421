import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ClustersList } from './features/clusters/clusters-list';

const queryClient = new QueryClient();

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <header>
        <h1>Artemis Studio</h1>
      </header>
      <main>
        <ClustersList />
      </main>
    </QueryClientProvider>
  );
}
