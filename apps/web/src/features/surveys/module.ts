import type { FeatureModule } from '../../lib/feature-module';

/**
 * Mental-health and well-being surveys: the hub (mental-health-survey), taking a survey
 * (mental-health-survey/<route>), a result with the safety path (health-action/result), and the
 * record's assessments view (health-record/assessments: a static path, ranked above
 * health-record/:category).
 */
export const surveysModule: FeatureModule = {
  namespaces: ['surveys'],
  feature: 'surveys',
  routes: [
    { path: 'mental-health-survey', page: () => import('./components/survey-hub-page') },
    { path: 'mental-health-survey/:survey', page: () => import('./components/take-survey-page') },
    { path: 'health-action/result', page: () => import('./components/survey-result-page') },
    { path: 'health-record/assessments', page: () => import('./components/assessments-page') },
  ],
};
