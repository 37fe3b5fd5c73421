import { CreateClusterRequestSchema, UpdateClusterRequestSchema } from '@artemis-studio/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { parseClusterId, parseInput } from '../http/api-error';
import { GatewayData } from '../gateway-data.service';

@Controller('api/v1/clusters')
export class ClustersController {
  constructor(private readonly data: GatewayData) {}

  @Post()
  async create(@Body() body: unknown) {
    return (await this.data.registry()).create(
      parseInput(CreateClusterRequestSchema, body, 'cluster registration'),
    );
  }

  @Get()
  async list() {
    return (await this.data.registry()).list();
  }

  @Get(':id')
  async detail(@Param('id') id: string) {
    return (await this.data.registry()).detail(parseClusterId(id));
  }

  @Patch(':id')
  async update(@Param('id') id: string, @Body() body: unknown) {
    const clusterId = parseClusterId(id);
    return (await this.data.registry()).update(
      clusterId,
      parseInput(UpdateClusterRequestSchema, body, 'cluster update'),
    );
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id') id: string) {
    await (await this.data.registry()).delete(parseClusterId(id));
  }
}
