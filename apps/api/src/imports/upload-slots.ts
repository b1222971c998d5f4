// Uploads hold a connection of the import pool for as long as their client takes to send them:
// each tenant gets its share (IMPORT_UPLOADS_PER_TENANT) and its extra uploads are refused at once.
import { TenantSlots } from '../common/tenant-slots';

export class UploadSlots extends TenantSlots {
  constructor(perTenant: number) {
    super({ perTenant, code: 'UPLOADS_BUSY', what: 'uploads', perTenantSetting: 'IMPORT_UPLOADS_PER_TENANT' });
  }
}
