import type { FeatureModule } from '../../lib/feature-module';

const page = () => import('./components/symptom-checker-page');

/** The symptom checker: one guided check, at symptom-checker, health-check and isabel-symptom-checker (as in the original). */
export const symptomCheckerModule: FeatureModule = {
  feature: 'symptom-checker',
  routes: [
    { path: 'symptom-checker', page },
    { path: 'health-check', page },
    { path: 'isabel-symptom-checker', page },
  ],
};
