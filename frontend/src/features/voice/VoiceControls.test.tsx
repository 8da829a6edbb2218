import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test-utils/render';
import { MicButton, VoiceControls } from './VoiceControls';

function AboutProbe() {
  const location = useLocation();
  return <p>about {JSON.stringify(location.state)}</p>;
}

function setup(privileged: boolean, voiceMode = false) {
  const props = {
    privileged,
    voiceMode,
    onVoiceModeChange: vi.fn(),
    voice: 'alloy' as const,
    onVoiceChange: vi.fn(),
    listening: false,
    interim: '',
    playing: false,
    onStopPlayback: vi.fn(),
  };
  const view = renderWithProviders(
    <Routes>
      <Route path="/chat" element={<VoiceControls {...props} />} />
      <Route path="/about" element={<AboutProbe />} />
    </Routes>,
    { route: '/chat' },
  );
  return { ...view, props };
}

describe('VoiceControls', () => {
  it('sends a free user to /about with the voice-locked indicator', async () => {
    const { user, props } = setup(false);
    expect(screen.getByTestId('voice-locked')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start recording' })).toBeNull();
    await user.click(screen.getByRole('switch', { name: /Voice mode/ }));
    expect(await screen.findByText('about {"voiceLocked":true}')).toBeInTheDocument();
    expect(props.onVoiceModeChange).not.toHaveBeenCalled();
  });

  it('shows the microphone and voice selector only in voice mode for paid roles', async () => {
    const { user, props, unmount } = setup(true, false);
    expect(screen.queryByRole('button', { name: 'Start recording' })).toBeNull();
    await user.click(screen.getByRole('switch', { name: /Voice mode/ }));
    expect(props.onVoiceModeChange).toHaveBeenCalledWith(true);
    unmount();

    const on = setup(true, true);
    await on.user.selectOptions(screen.getByRole('combobox', { name: 'Voice' }), 'nova');
    expect(on.props.onVoiceChange).toHaveBeenCalledWith('nova');
    expect(screen.getAllByRole('option')).toHaveLength(9);
  });

  it('the microphone is an icon button with its name', async () => {
    const onMic = vi.fn();
    const { user } = renderWithProviders(<MicButton listening={false} onMic={onMic} />);
    await user.click(screen.getByRole('button', { name: 'Start recording' }));
    expect(onMic).toHaveBeenCalled();
  });
});
