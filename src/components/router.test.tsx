import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Link, NavLink, Router, syncLocation, useLocation, useNavigationType } from './router';

function Probe() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${useNavigationType()} ${pathname}${search}`}</output>;
}

function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  syncLocation('load');
  return render(
    <Router>
      <nav>
        <Link to="/produkte/ai-hotlines">Hotlines</Link>
        <NavLink to="/" className={({ isActive }) => (isActive ? 'active' : 'idle')}>
          Home
        </NavLink>
      </nav>
      <Probe />
    </Router>,
  );
}

describe('router', () => {
  it('renders the location the browser shows', () => {
    renderAt('/company/about?x=1');
    expect(screen.getByTestId('where')).toHaveTextContent('load /company/about?x=1');
  });

  it('a plain click on a link moves there without a page load and pushes history', () => {
    renderAt('/');
    const before = window.history.length;
    fireEvent.click(screen.getByRole('link', { name: 'Hotlines' }));
    expect(screen.getByTestId('where')).toHaveTextContent('push /produkte/ai-hotlines');
    expect(window.location.pathname).toBe('/produkte/ai-hotlines');
    expect(window.history.length).toBe(before + 1);
  });

  it('leaves a click with a modifier key to the browser', () => {
    renderAt('/');
    let leftToBrowser = false;
    // Runs after the link's own handler; jsdom cannot open the new tab itself, so stop it here.
    document.addEventListener(
      'click',
      (event) => {
        leftToBrowser = !event.defaultPrevented;
        event.preventDefault();
      },
      { once: true },
    );
    fireEvent.click(screen.getByRole('link', { name: 'Hotlines' }), { ctrlKey: true });
    expect(leftToBrowser).toBe(true);
    expect(screen.getByTestId('where')).toHaveTextContent('load /');
  });

  it('marks the link to the current page', () => {
    renderAt('/');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveClass('active');
    fireEvent.click(screen.getByRole('link', { name: 'Hotlines' }));
    expect(screen.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  it('follows back/forward and navigations made by another router', () => {
    renderAt('/');
    act(() => {
      window.history.pushState(null, '', '/admin/master-dashboard');
      syncLocation('replace');
    });
    expect(screen.getByTestId('where')).toHaveTextContent('replace /admin/master-dashboard');
    act(() => {
      window.history.replaceState(null, '', '/company/about');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(screen.getByTestId('where')).toHaveTextContent('pop /company/about');
  });

  it('renders a fixed location when prerendering', () => {
    window.history.replaceState(null, '', '/');
    render(
      <Router location="/products/ai-hotlines">
        <Probe />
      </Router>,
    );
    expect(screen.getByTestId('where')).toHaveTextContent('load /products/ai-hotlines');
  });
});
