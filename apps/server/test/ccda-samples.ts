/**
 * C-CDA documents made by the tests (no published sample, so no licence to carry): a valid
 * Continuity of Care Document (C-CDA R2.1 templates) with allergies, problems, medications,
 * immunizations, results, vital signs, procedures and encounters, each entry with its own id
 * (the converter keeps it as an identifier, which is what tells a second import it is a
 * duplicate). `repeat` makes each section hold that many entries, for a big document.
 */

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const SNOMED = '2.16.840.1.113883.6.96';
const LOINC = '2.16.840.1.113883.6.1';
const RXNORM = '2.16.840.1.113883.6.88';
const CVX = '2.16.840.1.113883.12.292';
const CPT = '2.16.840.1.113883.6.12';

export interface CcdaOptions {
  /** The document's root id (another root: another document, other entry ids). */
  root?: string;
  given?: string;
  family?: string;
  birthDate?: string;
  title?: string;
  /** How many times each section's entries repeat (default 1). */
  repeat?: number;
}

function section(template: string, code: string, title: string, text: string, entries: string[]): string {
  return `<component><section>
  <templateId root="${template}" extension="2015-08-01"/><templateId root="${template}"/>
  <code code="${code}" codeSystem="${LOINC}" codeSystemName="LOINC"/>
  <title>${esc(title)}</title>
  <text>${esc(text)}</text>
  ${entries.map((e) => `<entry typeCode="DRIV">${e}</entry>`).join('\n  ')}
</section></component>`;
}

export function buildCcda(options: CcdaOptions = {}): string {
  const root = options.root ?? '2.16.840.1.113883.19.5.99999';
  const n = options.repeat ?? 1;
  const times = <T>(make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));
  const id = (kind: string, i: number) => `<id root="${root}" extension="${kind}-${i}"/>`;
  // A day in 2019–2023 for the i-th repetition (each a different entry: different dates).
  const day = (year: number, i: number) => `${year - (i % 5)}${String((i % 12) + 1).padStart(2, '0')}${String((i % 28) + 1).padStart(2, '0')}`;

  const allergies = times(
    (i) => `<act classCode="ACT" moodCode="EVN">
    <templateId root="2.16.840.1.113883.10.20.22.4.30" extension="2015-08-01"/>${id('allergy-act', i)}
    <code code="CONC" codeSystem="2.16.840.1.113883.5.6"/><statusCode code="active"/><effectiveTime><low value="${day(2015, i)}"/></effectiveTime>
    <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
      <templateId root="2.16.840.1.113883.10.20.22.4.7" extension="2014-06-09"/>${id('allergy', i)}
      <code code="ASSERTION" codeSystem="2.16.840.1.113883.5.4"/><statusCode code="completed"/>
      <effectiveTime><low value="${day(2010, i)}"/></effectiveTime>
      <value xsi:type="CD" code="419511003" codeSystem="${SNOMED}" displayName="Propensity to adverse reactions to drug"/>
      <participant typeCode="CSM"><participantRole classCode="MANU"><playingEntity classCode="MMAT">
        <code code="7980" codeSystem="${RXNORM}" displayName="Penicillin G${i ? ` ${i}` : ''}"/>
      </playingEntity></participantRole></participant>
    </observation></entryRelationship>
  </act>`,
  );
  const problems = times(
    (i) => `<act classCode="ACT" moodCode="EVN">
    <templateId root="2.16.840.1.113883.10.20.22.4.3" extension="2015-08-01"/>${id('problem-act', i)}
    <code code="CONC" codeSystem="2.16.840.1.113883.5.6"/><statusCode code="active"/><effectiveTime><low value="${day(2016, i)}"/></effectiveTime>
    <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
      <templateId root="2.16.840.1.113883.10.20.22.4.4" extension="2015-08-01"/>${id('problem', i)}
      <code code="55607006" codeSystem="${SNOMED}" displayName="Problem"/><statusCode code="completed"/>
      <effectiveTime><low value="${day(2015, i)}"/></effectiveTime>
      <value xsi:type="CD" code="38341003" codeSystem="${SNOMED}" displayName="Hypertension${i ? ` ${i}` : ''}"/>
    </observation></entryRelationship>
  </act>`,
  );
  const medications = times(
    (i) => `<substanceAdministration classCode="SBADM" moodCode="EVN">
    <templateId root="2.16.840.1.113883.10.20.22.4.16" extension="2014-06-09"/>${id('medication', i)}
    <statusCode code="active"/>
    <effectiveTime xsi:type="IVL_TS"><low value="${day(2016, i)}"/></effectiveTime>
    <consumable><manufacturedProduct classCode="MANU"><templateId root="2.16.840.1.113883.10.20.22.4.23" extension="2014-06-09"/>
      <manufacturedMaterial><code code="197361" codeSystem="${RXNORM}" displayName="Amlodipine 5 MG Oral Tablet${i ? ` ${i}` : ''}"/></manufacturedMaterial>
    </manufacturedProduct></consumable>
  </substanceAdministration>`,
  );
  const immunizations = times(
    (i) => `<substanceAdministration classCode="SBADM" moodCode="EVN" negationInd="false">
    <templateId root="2.16.840.1.113883.10.20.22.4.52" extension="2015-08-01"/>${id('immunization', i)}
    <statusCode code="completed"/><effectiveTime value="${day(2023, i)}"/>
    <consumable><manufacturedProduct classCode="MANU"><templateId root="2.16.840.1.113883.10.20.22.4.54" extension="2014-06-09"/>
      <manufacturedMaterial><code code="140" codeSystem="${CVX}" displayName="Influenza, seasonal, injectable${i ? ` ${i}` : ''}"/></manufacturedMaterial>
    </manufacturedProduct></consumable>
  </substanceAdministration>`,
  );
  const results = times(
    (i) => `<organizer classCode="BATTERY" moodCode="EVN">
    <templateId root="2.16.840.1.113883.10.20.22.4.1" extension="2015-08-01"/>${id('panel', i)}
    <code code="24323-8" codeSystem="${LOINC}" displayName="Comprehensive metabolic panel"/><statusCode code="completed"/>
    <effectiveTime value="${day(2023, i)}"/>
    <component><observation classCode="OBS" moodCode="EVN">
      <templateId root="2.16.840.1.113883.10.20.22.4.2" extension="2015-08-01"/>${id('glucose', i)}
      <code code="2345-7" codeSystem="${LOINC}" displayName="Glucose"/><statusCode code="completed"/>
      <effectiveTime value="${day(2023, i)}"/><value xsi:type="PQ" value="${90 + (i % 20)}" unit="mg/dL"/>
    </observation></component>
  </organizer>`,
  );
  const vitals = times(
    (i) => `<organizer classCode="CLUSTER" moodCode="EVN">
    <templateId root="2.16.840.1.113883.10.20.22.4.26" extension="2015-08-01"/>${id('vitals', i)}
    <code code="46680005" codeSystem="${SNOMED}" displayName="Vital signs"/><statusCode code="completed"/>
    <effectiveTime value="${day(2023, i)}"/>
    <component><observation classCode="OBS" moodCode="EVN">
      <templateId root="2.16.840.1.113883.10.20.22.4.27" extension="2014-06-09"/>${id('weight', i)}
      <code code="29463-7" codeSystem="${LOINC}" displayName="Body weight"/><statusCode code="completed"/>
      <effectiveTime value="${day(2023, i)}"/><value xsi:type="PQ" value="${70 + (i % 10)}" unit="kg"/>
    </observation></component>
  </organizer>`,
  );
  const procedures = times(
    (i) => `<procedure classCode="PROC" moodCode="EVN">
    <templateId root="2.16.840.1.113883.10.20.22.4.14" extension="2014-06-09"/>${id('procedure', i)}
    <code code="80146002" codeSystem="${SNOMED}" displayName="Appendectomy${i ? ` ${i}` : ''}"/><statusCode code="completed"/>
    <effectiveTime value="${day(2001, i)}"/>
  </procedure>`,
  );
  const encounters = times(
    (i) => `<encounter classCode="ENC" moodCode="EVN">
    <templateId root="2.16.840.1.113883.10.20.22.4.49" extension="2015-08-01"/>${id('encounter', i)}
    <code code="99213" codeSystem="${CPT}" displayName="Office outpatient visit${i ? ` ${i}` : ''}"/>
    <effectiveTime value="${day(2023, i)}"/>
  </encounter>`,
  );

  return `<?xml version="1.0" encoding="UTF-8"?>
<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:sdtc="urn:hl7-org:sdtc">
  <realmCode code="US"/>
  <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
  <templateId root="2.16.840.1.113883.10.20.22.1.1" extension="2015-08-01"/>
  <templateId root="2.16.840.1.113883.10.20.22.1.2" extension="2015-08-01"/>
  <id root="${root}" extension="document"/>
  <code code="34133-9" codeSystem="${LOINC}" codeSystemName="LOINC" displayName="Summarization of Episode Note"/>
  <title>${esc(options.title ?? 'Continuity of Care Document')}</title>
  <effectiveTime value="20240115120000+0000"/>
  <confidentialityCode code="N" codeSystem="2.16.840.1.113883.5.25"/>
  <languageCode code="en-US"/>
  <recordTarget><patientRole>
    <id root="2.16.840.1.113883.19.5" extension="patient-1"/>
    <patient>
      <name><given>${esc(options.given ?? 'Anna')}</given><family>${esc(options.family ?? 'Example')}</family></name>
      <administrativeGenderCode code="F" codeSystem="2.16.840.1.113883.5.1"/>
      <birthTime value="${(options.birthDate ?? '1980-06-15').replace(/-/g, '')}"/>
    </patient>
  </patientRole></recordTarget>
  <author><time value="20240115"/><assignedAuthor><id root="2.16.840.1.113883.4.6" extension="1234567890"/>
    <assignedPerson><name><given>Grace</given><family>Clinician</family></name></assignedPerson></assignedAuthor></author>
  <custodian><assignedCustodian><representedCustodianOrganization><id root="2.16.840.1.113883.19.5"/><name>Example Clinic</name></representedCustodianOrganization></assignedCustodian></custodian>
  <component><structuredBody>
${section('2.16.840.1.113883.10.20.22.2.6.1', '48765-2', 'Allergies', 'Penicillin G', allergies)}
${section('2.16.840.1.113883.10.20.22.2.5.1', '11450-4', 'Problems', 'Hypertension', problems)}
${section('2.16.840.1.113883.10.20.22.2.1.1', '10160-0', 'Medications', 'Amlodipine 5 MG Oral Tablet', medications)}
${section('2.16.840.1.113883.10.20.22.2.2.1', '11369-6', 'Immunizations', 'Influenza vaccine', immunizations)}
${section('2.16.840.1.113883.10.20.22.2.3.1', '30954-2', 'Results', 'Glucose 95 mg/dL', results)}
${section('2.16.840.1.113883.10.20.22.2.4.1', '8716-3', 'Vital Signs', 'Body weight 70 kg', vitals)}
${section('2.16.840.1.113883.10.20.22.2.7.1', '47519-4', 'Procedures', 'Appendectomy', procedures)}
${section('2.16.840.1.113883.10.20.22.2.22.1', '46240-8', 'Encounters', 'Office visit', encounters)}
  </structuredBody></component>
</ClinicalDocument>
`;
}
