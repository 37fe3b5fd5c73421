import { Module } from '@nestjs/common';
import { ClusterLinksController } from './cluster-links.controller';
import { ClusterLinksQueries } from './cluster-links.queries';

/** The links between a cluster's nodes and the messages they leave stranded, as the scraper stored them. */
@Module({ controllers: [ClusterLinksController], providers: [ClusterLinksQueries] })
export class ClusterLinksModule {}
