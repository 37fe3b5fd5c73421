import { Module } from '@nestjs/common';
import { OwnerClient } from './owner-client';

/** The path to a cluster's owner, for every feature that reads from or acts on its brokers. */
@Module({ providers: [OwnerClient], exports: [OwnerClient] })
export class OwnerModule {}
