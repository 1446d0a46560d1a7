import type { FeatureModule } from '../../lib/feature-module';

const page = () => import('./components/symptom-checker-page');

/** The symptom checker: one guided check, at symptom-checker and isabel-symptom-checker (as in the original). */
export const symptomCheckerModule: FeatureModule = {
  namespaces: ['symptom-checker'],
  feature: 'symptom-checker',
  routes: [
    { path: 'symptom-checker', page },
    { path: 'isabel-symptom-checker', page },
  ],
};

/** The menu's Self-Diagnosis (health-check): the same check, governed by its own feature status. */
export const selfDiagnosisModule: FeatureModule = {
  namespaces: ['symptom-checker'],
  feature: 'self-diagnosis',
  routes: [{ path: 'health-check', page }],
};
