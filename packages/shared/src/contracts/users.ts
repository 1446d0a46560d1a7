import { z } from 'zod';
import { GENDER_KEYS } from '../constants';
import { timeZoneSchema } from './calendar';
import { IdParamSchema, optionalLineSchema, personNameSchema } from './common';
import { readOnlyFields, writableBody } from './round-trip';

export const OptionSchema = z.object({ key: z.string(), value: z.string() });
export type Option = z.infer<typeof OptionSchema>;

export const MfaDeviceSummarySchema = z.object({ uuid: z.string(), device_type: z.enum(['email', 'google']) });

export const UserSettingsSchema = z
  .object({
    dark: z.boolean().optional(),
    language: z.enum(['en', 'el']).optional(),
    isWizardMinimized: z.boolean().optional(),
    /** The account's time zone (IANA): the browser's, saved on sign-in, or chosen in Preferences; e-mails and PDFs write times in it. */
    timeZone: timeZoneSchema.optional(),
  })
  .strict();
export type UserSettings = z.infer<typeof UserSettingsSchema>;

/**
 * An appointment of the patient, as the specification's /me lists it. appointment_date and
 * appointment_time ("hh:mm AM/PM") are the provider's wall clock; start_time and end_time
 * are the instants (UTC), which the web app shows in the user's own time zone.
 */
export const AppointmentSchema = z.object({
  appointment_date: z.string(),
  appointment_time: z.string(),
  provider_name: z.string(),
  provider_id: z.number().int(),
  provider_speciality: z.string().nullable(),
  provider_speciality_el: z.string().nullable(),
  availability_det_id: z.number().int(),
  start_time: z.string(),
  end_time: z.string(),
  reason_for_visit: z.string(),
});

/** The user record of the spec (GET /api/v1/me/, login and verify answers). */
export const UserDtoSchema = z
  .object({
    user_id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    gender: OptionSchema.nullable(),
    sex: OptionSchema.nullable(),
    credential: z.string().nullable(),
    dob: z.string().nullable(),
    email: z.string(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    zip_code: z.string().nullable(),
    phone_number: z.string().nullable(),
    imperial_units: z.boolean(),
    has_mfa_enabled: z.boolean(),
    mfa_devices: z.array(MfaDeviceSummarySchema),
    profile_picture: z.string().nullable(),
    settings: UserSettingsSchema,
    wizard_complete: z.boolean(),
    roles: z.array(z.string()),
    is_superadmin: z.boolean(),
    user_org_details: z.array(z.object({ org: z.number().int(), org_name: z.string(), name: z.string() })),
    patient_appointment_details: z.array(AppointmentSchema),
  })
  .meta({ id: 'User' });
export type UserDto = z.infer<typeof UserDtoSchema>;

/**
 * The user in the sign-in answer while the second factor is pending (access limited): only
 * what the verification page needs. No date of birth, address, phone, e-mail or device ids.
 */
export const LimitedUserSchema = z
  .object({
    user_id: z.number().int(),
    first_name: z.string(),
    has_mfa_enabled: z.boolean(),
    mfa_devices: z.array(z.object({ device_type: z.enum(['email', 'google']) })),
    settings: UserSettingsSchema,
    user_org_details: z.array(z.object({ org: z.number().int(), org_name: z.string(), name: z.string() })),
  })
  .meta({ id: 'LimitedUser' });
export type LimitedUser = z.infer<typeof LimitedUserSchema>;

const optionalText = optionalLineSchema;

/** What the user record holds that PUT cannot set: sent back, ignored (has_mfa_enabled is derived from the confirmed devices). */
export const USER_READ_ONLY = readOnlyFields(UserDtoSchema, [
  'user_id',
  'has_mfa_enabled',
  'mfa_devices',
  'profile_picture',
  'wizard_complete',
  'roles',
  'is_superadmin',
  'user_org_details',
  'patient_appointment_details',
]);

/** PUT /api/v1/me/ and /api/v1/users/{id}: the fields of the spec, each optional. */
export const UpdateUserBodySchema = writableBody(
  z
    .object({
      first_name: personNameSchema('validation:firstNameRequired').optional(),
      last_name: personNameSchema('validation:lastNameRequired').optional(),
      gender: z.union([z.enum(GENDER_KEYS), OptionSchema]).nullable().optional(),
      sex: z.union([z.enum(GENDER_KEYS), OptionSchema]).nullable().optional(),
      credential: optionalText(100),
      dob: z.string().nullable().optional(),
      email: z.string().trim().max(254).optional(),
      address: optionalText(200),
      city: optionalText(100),
      state: optionalText(100),
      zip: optionalText(20),
      zip_code: optionalText(20),
      phone_number: optionalText(40),
      imperial_units: z.boolean().optional(),
      settings: UserSettingsSchema.optional(),
    })
    .meta({ id: 'UpdateUser' }),
  USER_READ_ONLY,
);
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

export const UserOptionsSchema = z.object({ gender: z.array(OptionSchema), sex: z.array(OptionSchema) });
export type UserOptions = z.infer<typeof UserOptionsSchema>;

export const ProfileQuestionSchema = z.object({
  id: z.number().int(),
  question: z.string(),
  question_type: z.enum(['text', 'choice', 'boolean']),
  options: z.array(OptionSchema),
  answer: z.string().nullable(),
});
export type ProfileQuestion = z.infer<typeof ProfileQuestionSchema>;
/** At most this many answers in one call (an organisation has a handful of questions). */
export const PROFILE_ANSWERS_MAX = 100;
export const ProfileAnswersBodySchema = z.object({
  answers: z
    .record(z.string().regex(/^[0-9]{1,10}$/), z.string().max(2000))
    .refine((answers) => Object.keys(answers).length <= PROFILE_ANSWERS_MAX, { message: 'validation:tooManyAnswers' }),
});

export const WelcomeMessageSchema = z.object({ id: z.number().int(), title: z.string(), message: z.string() });

export const WizardStepSchema = z.object({
  model_name: z.enum(['profile', 'mfa', 'profile_questions', 'health_record']),
  title: z.string(),
  completed: z.boolean(),
});
export const WizardSchema = z.object({
  status: z.enum(['completed', 'minimized', 'pending']),
  steps: z.array(WizardStepSchema),
});
export type Wizard = z.infer<typeof WizardSchema>;
export const WizardStepBodySchema = z.object({ model_name: WizardStepSchema.shape.model_name });

/** GET and PUT /api/v1/users/{id}, GET /api/v1/users/get_welcome_messages/{id} */
export const UserIdParamsSchema = z.object({ id: IdParamSchema });

/**
 * GET /api/v1/users/avatar/{key}: the avatar's file name, `<userId>-<random>.<ext>`. The random
 * part (144 bits) makes the address the credential, so an <img> can load it without a header.
 */
export const AVATAR_FILE_PATTERN = /^([1-9][0-9]{0,9})-[A-Za-z0-9_-]{24}\.(png|jpg|gif|webp)$/;
export const AvatarKeyParamsSchema = z.object({ key: z.string().max(64).regex(AVATAR_FILE_PATTERN) });

export const ProfileQuestionListSchema = z.array(ProfileQuestionSchema).meta({ id: 'ProfileQuestionList' });
export const WelcomeMessageListSchema = z.array(WelcomeMessageSchema).meta({ id: 'WelcomeMessageList' });
export type WelcomeMessage = z.infer<typeof WelcomeMessageSchema>;
export type ProfileAnswersBody = z.infer<typeof ProfileAnswersBodySchema>;
export type WizardStepBody = z.infer<typeof WizardStepBodySchema>;
export type WizardStepName = z.infer<typeof WizardStepSchema>['model_name'];
export type Appointment = z.infer<typeof AppointmentSchema>;
