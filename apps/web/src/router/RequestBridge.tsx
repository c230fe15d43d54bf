import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { configureRequest } from '../api/request';
import { QueryKey } from '../session/queries';
import { showNotice } from './notices';

/** Hands the router, the toasts and the query cache to the request wrapper, which lives outside React. */
export function RequestBridge() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const here = useRef('');
  here.current = location.pathname + location.search;

  useEffect(() => {
    configureRequest({
      navigate: (to) => navigate(to),
      notify: showNotice,
      currentPath: () => here.current,
      onSessionEnded: () => queryClient.removeQueries({ queryKey: ['session'] }),
      onLoggedOn: () => void queryClient.invalidateQueries({ queryKey: QueryKey.userInfo }),
    });
  }, [navigate, queryClient]);
  return null;
}

/** Spec section 2: the router scrolls to the top on each navigation. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path change is the trigger
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
