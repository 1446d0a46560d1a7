import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Fab from '@mui/material/Fab';
import Zoom from '@mui/material/Zoom';
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import { SCROLL_TO_TOP_DELAY_MS, SCROLL_TO_TOP_THRESHOLD_PX } from '@healthbook/shared/constants';

/**
 * The scroll-to-top button: shown once the page is scrolled more than 500 px, reacting to
 * scrolling 190 ms after it settles; it brings the page back to the top and focus to its start.
 */
export function ScrollToTop() {
  const { t } = useTranslation('shell');
  const [shown, setShown] = useState(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setShown(window.scrollY > SCROLL_TO_TOP_THRESHOLD_PX), SCROLL_TO_TOP_DELAY_MS);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);

  const toTop = () => {
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: 0, behavior: reduce ? 'auto' : 'smooth' });
    document.getElementById('main')?.focus({ preventScroll: true });
  };

  return (
    <Zoom in={shown} unmountOnExit>
      <Fab color="primary" size="medium" aria-label={t('scrollTop')} onClick={toTop} sx={{ position: 'fixed', right: 24, bottom: 24, zIndex: 'speedDial' }}>
        <KeyboardArrowUp />
      </Fab>
    </Zoom>
  );
}
