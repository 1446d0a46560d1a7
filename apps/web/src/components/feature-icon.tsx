import type { ComponentType } from 'react';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import AirportShuttle from '@mui/icons-material/AirportShuttle';
import Biotech from '@mui/icons-material/Biotech';
import CalendarMonth from '@mui/icons-material/CalendarMonth';
import Coronavirus from '@mui/icons-material/Coronavirus';
import Dashboard from '@mui/icons-material/Dashboard';
import Diversity3 from '@mui/icons-material/Diversity3';
import Emergency from '@mui/icons-material/Emergency';
import EventAvailable from '@mui/icons-material/EventAvailable';
import FactCheck from '@mui/icons-material/FactCheck';
import FamilyRestroom from '@mui/icons-material/FamilyRestroom';
import FolderShared from '@mui/icons-material/FolderShared';
import Forum from '@mui/icons-material/Forum';
import Groups from '@mui/icons-material/Groups';
import Healing from '@mui/icons-material/Healing';
import HealthAndSafety from '@mui/icons-material/HealthAndSafety';
import HelpCenter from '@mui/icons-material/HelpCenter';
import History from '@mui/icons-material/History';
import Hub from '@mui/icons-material/Hub';
import Insights from '@mui/icons-material/Insights';
import LibraryBooks from '@mui/icons-material/LibraryBooks';
import Link from '@mui/icons-material/Link';
import LocalHospital from '@mui/icons-material/LocalHospital';
import LocalPharmacy from '@mui/icons-material/LocalPharmacy';
import Logout from '@mui/icons-material/Logout';
import MedicalServices from '@mui/icons-material/MedicalServices';
import Medication from '@mui/icons-material/Medication';
import MenuBook from '@mui/icons-material/MenuBook';
import MonitorHeart from '@mui/icons-material/MonitorHeart';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import OndemandVideo from '@mui/icons-material/OndemandVideo';
import Person from '@mui/icons-material/Person';
import PersonSearch from '@mui/icons-material/PersonSearch';
import PrivacyTip from '@mui/icons-material/PrivacyTip';
import Psychology from '@mui/icons-material/Psychology';
import TipsAndUpdates from '@mui/icons-material/TipsAndUpdates';
import RoomService from '@mui/icons-material/RoomService';
import Security from '@mui/icons-material/Security';
import Share from '@mui/icons-material/Share';
import StickyNote2 from '@mui/icons-material/StickyNote2';
import SupportAgent from '@mui/icons-material/SupportAgent';
import VideoCall from '@mui/icons-material/VideoCall';
import MonitorWeight from '@mui/icons-material/MonitorWeight';
import Flight from '@mui/icons-material/Flight';
import Spa from '@mui/icons-material/Spa';
import Diversity1 from '@mui/icons-material/Diversity1';
import ImageSearch from '@mui/icons-material/ImageSearch';
import Vaccines from '@mui/icons-material/Vaccines';
import Sick from '@mui/icons-material/Sick';

/** The icons the catalogue names (icon_name), imported one by one so only these are bundled. */
const ICONS: Record<string, ComponentType<SvgIconProps>> = {
  AirportShuttle,
  Biotech,
  CalendarMonth,
  Coronavirus,
  Dashboard,
  Diversity3,
  Emergency,
  EventAvailable,
  FactCheck,
  FamilyRestroom,
  FolderShared,
  Forum,
  Groups,
  Healing,
  HealthAndSafety,
  HelpCenter,
  History,
  Hub,
  Insights,
  LibraryBooks,
  Link,
  LocalHospital,
  LocalPharmacy,
  Logout,
  MedicalServices,
  Medication,
  MenuBook,
  MonitorHeart,
  NotificationsActive,
  OndemandVideo,
  Person,
  PersonSearch,
  PrivacyTip,
  Psychology,
  TipsAndUpdates,
  RoomService,
  Security,
  Share,
  StickyNote2,
  SupportAgent,
  VideoCall,
  Sick,
  Vaccines,
  ImageSearch,
  Diversity1,
  Spa,
  Flight,
  MonitorWeight,
};

/** A feature's icon by its icon_name (a neutral one for a name this version does not know). */
export function FeatureIcon({ name, ...props }: SvgIconProps & { name: string }) {
  const Icon = ICONS[name] ?? HelpCenter;
  return <Icon {...props} />;
}
