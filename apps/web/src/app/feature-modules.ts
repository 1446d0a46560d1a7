import { accountModule } from '../features/account/module';
import { adminModule, operationsModule } from '../features/admin/module';
import { calendarModule } from '../features/calendar/module';
import { documentsModule } from '../features/documents/module';
import { healthRecordsModule } from '../features/health-records/module';
import { helpModule } from '../features/help/module';
import { liveHelpModule } from '../features/live-help/module';
import { providerConsoleModule } from '../features/provider-console/module';
import { recordTransferModule } from '../features/record-transfer/module';
import { providerSearchModule, scheduleAppointmentModule, telehealthModule } from '../features/telehealth/module';
import { sharingModule } from '../features/sharing/module';
import type { FeatureModule } from '../lib/feature-module';

/**
 * Every feature of the signed-in hub, registered once: its pages join the router (guarded by
 * its status), its widgets the dashboard. The menu and the app bar follow the catalogue.
 */
export const FEATURE_MODULES: readonly FeatureModule[] = [
  accountModule,
  healthRecordsModule,
  recordTransferModule,
  documentsModule,
  calendarModule,
  helpModule,
  liveHelpModule,
  telehealthModule,
  scheduleAppointmentModule,
  providerSearchModule,
  providerConsoleModule,
  adminModule,
  operationsModule,
  sharingModule,
];
