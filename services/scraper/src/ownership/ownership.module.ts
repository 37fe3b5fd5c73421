import { type DynamicModule, type ModuleMetadata, Module, type Provider } from '@nestjs/common';
import { PollerOwnershipService } from './poller-ownership.service';

/**
 * The leases of the clusters this replica polls, driving the parts it is given: `parts` is
 * `clusterParts([...])` (cluster-parts/cluster-parts.ts), `imports` the modules that provide them.
 */
@Module({})
export class OwnershipModule {
  static forParts(options: { imports: ModuleMetadata['imports']; parts: Provider }): DynamicModule {
    return {
      module: OwnershipModule,
      imports: options.imports,
      providers: [options.parts, PollerOwnershipService],
    };
  }
}
