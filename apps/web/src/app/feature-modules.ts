import { accountModule } from '../features/account/module';
import { adminModule, operationsModule } from '../features/admin/module';
import { calendarModule } from '../features/calendar/module';
import { chatConsoleModule } from '../features/chat-console/module';
import type { ChatSocketFactory } from '../lib/chat-socket';
import { documentsModule } from '../features/documents/module';
import { emergencyModule } from '../features/emergency/module';
import { healthRecordsModule } from '../features/health-records/module';
import { helpModule } from '../features/help/module';
import { insuranceModule } from '../features/insurance/module';
import { liveHelpModule } from '../features/live-help/module';
import { providerConsoleModule } from '../features/provider-console/module';
import { recordTransferModule } from '../features/record-transfer/module';
import { providerSearchModule, scheduleAppointmentModule, telehealthModule } from '../features/telehealth/module';
import { videoVisitModule } from '../features/video-visit/module';
import { sharingModule } from '../features/sharing/module';
import { selfDiagnosisModule, symptomCheckerModule } from '../features/symptom-checker/module';
import { surveysModule } from '../features/surveys/module';
import { journalModule } from '../features/journal/module';
import { connectionHubModule } from '../features/connection-hub/module';
import { familyMembersModule } from '../features/family-members/module';
import { careNetworkModule } from '../features/care-network/module';
import type { FeatureModule } from '../lib/feature-module';

/**
 * The live chat's socket client (features/live-help) handed to the staff's chat console
 * (features/chat-console) and the video visit's chat (features/video-visit), which may not import
 * another feature; loaded with their pages.
 */
function loadChatSocket(): Promise<ChatSocketFactory> {
  return import('../features/live-help/lib/chat-connection').then(({ ChatConnection }) => (options) => new ChatConnection(options));
}

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
  videoVisitModule(loadChatSocket),
  scheduleAppointmentModule,
  providerSearchModule,
  providerConsoleModule,
  chatConsoleModule(loadChatSocket),
  adminModule,
  operationsModule,
  sharingModule,
  symptomCheckerModule,
  selfDiagnosisModule,
  surveysModule,
  journalModule,
  insuranceModule,
  connectionHubModule,
  familyMembersModule,
  careNetworkModule,
  emergencyModule,
];
