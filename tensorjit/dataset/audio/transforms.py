"""Audio operations: decibels, gain, spectrogram (STFT), mel filter banks.

Inputs are waveforms (..., time) or spectrograms (..., freq, time); integer inputs become
float32, float64 stays float64 (MindSpore's rule).
"""
import numpy as np

from .checks import (check_type, check_positive, check_non_negative, check_int_range,
                     pipeline_error)
from .enums import ScaleType, WindowType, BorderType, NormType, MelType


def _float(array):
    array = np.asarray(array)
    return array if array.dtype in (np.float32, np.float64) else array.astype(np.float32)


class AmplitudeToDB:
    """Power or magnitude spectrogram to decibels, floored ``top_db`` below each maximum."""

    def __init__(self, stype=ScaleType.POWER, ref_value=1.0, amin=1e-10, top_db=80.0):
        check_type("stype", stype, ScaleType)
        check_positive("ref_value", ref_value)
        check_positive("amin", amin)
        check_positive("top_db", top_db)
        self.stype, self.ref_value, self.amin, self.top_db = stype, ref_value, amin, top_db

    def __call__(self, spec):
        spec = _float(spec)
        if spec.ndim < 2:
            raise pipeline_error(
                f"AmplitudeToDB: the shape of input tensor does not match the requirement of "
                f"operator. Expecting tensor in shape of <..., freq, time>. But got tensor with "
                f"dimension {spec.ndim}.")
        multiplier = 10.0 if self.stype == ScaleType.POWER else 20.0
        offset = multiplier * np.log10(max(self.amin, self.ref_value))
        db = multiplier * np.log10(np.maximum(spec, self.amin)) - offset
        # floor below the maximum over the last three axes (channels, freq, time), as
        # MindSpore / PyTorch audio take it
        axes = tuple(range(max(db.ndim - 3, 0), db.ndim))
        floor = db.max(axis=axes, keepdims=True) - self.top_db
        return np.maximum(db, floor).astype(spec.dtype)


class DBToAmplitude:
    """Decibels back to amplitude: ``ref * (10 ** (0.1 * x)) ** power``."""

    def __init__(self, ref, power):
        check_type("ref", ref, (int, float))
        check_type("power", power, (int, float))
        self.ref, self.power = ref, power

    def __call__(self, db):
        db = _float(db)
        return (self.ref * np.power(np.power(10.0, 0.1 * db), self.power)).astype(db.dtype)


class Gain:
    """Scale a waveform by ``gain_db`` decibels."""

    def __init__(self, gain_db=1.0):
        check_type("gain_db", gain_db, (int, float))
        self.gain_db = gain_db

    def __call__(self, waveform):
        waveform = _float(waveform)
        return (waveform * 10 ** (self.gain_db / 20)).astype(waveform.dtype)


def _window(kind, length):
    # periodic windows (PyTorch's and MindSpore's default for the STFT)
    n = np.arange(length)
    if kind == WindowType.HANN:
        return 0.5 - 0.5 * np.cos(2 * np.pi * n / length)
    if kind == WindowType.HAMMING:
        return 0.54 - 0.46 * np.cos(2 * np.pi * n / length)
    if kind == WindowType.BLACKMAN:
        return (0.42 - 0.5 * np.cos(2 * np.pi * n / length) +
                0.08 * np.cos(4 * np.pi * n / length))
    if kind == WindowType.BARTLETT:
        return 1 - np.abs(2 * n / length - 1)
    return np.kaiser(length + 1, 12.0)[:-1]   # KAISER, beta 12


_NUMPY_PAD = {BorderType.CONSTANT: "constant", BorderType.EDGE: "edge",
              BorderType.REFLECT: "reflect", BorderType.SYMMETRIC: "symmetric"}


class Spectrogram:
    """|STFT| ** power of a waveform (..., time) -> (..., n_fft // 2 + 1, frames)."""

    def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0,
                 window=WindowType.HANN, power=2.0, normalized=False, center=True,
                 pad_mode=BorderType.REFLECT, onesided=True):
        check_int_range("n_fft", n_fft)
        win_length = n_fft if win_length is None else win_length
        check_int_range("win_length", win_length)
        if win_length > n_fft:
            raise ValueError(f"Input win_length should be no more than n_fft, but got "
                             f"win_length: {win_length} and n_fft: {n_fft}.")
        hop_length = win_length // 2 if hop_length is None else hop_length
        check_int_range("hop_length", hop_length)
        check_int_range("pad", pad, 0)
        check_type("window", window, WindowType)
        check_non_negative("power", power)
        check_type("normalized", normalized, bool)
        check_type("center", center, bool)
        check_type("pad_mode", pad_mode, BorderType)
        check_type("onesided", onesided, bool)
        self.n_fft, self.win_length, self.hop_length, self.pad = n_fft, win_length, hop_length, pad
        self.window, self.power, self.normalized = window, power, normalized
        self.center, self.pad_mode, self.onesided = center, pad_mode, onesided

    def _window_of_fft_size(self):
        window = np.zeros(self.n_fft)
        start = (self.n_fft - self.win_length) // 2   # centred in the frame, as torch.stft
        window[start:start + self.win_length] = _window(self.window, self.win_length)
        return window

    def __call__(self, waveform):
        waveform = _float(waveform)
        signal = waveform.astype(np.float64)
        edges = [(0, 0)] * (signal.ndim - 1)
        if self.pad:
            signal = np.pad(signal, edges + [(self.pad, self.pad)])
        if self.center:
            half = self.n_fft // 2
            signal = np.pad(signal, edges + [(half, half)], mode=_NUMPY_PAD[self.pad_mode])
        length = signal.shape[-1]
        if not 0 < self.n_fft <= length:
            raise pipeline_error(f"Spectrogram: n_fft should be more than 0 and less than "
                                 f"{length}, but got n_fft: {self.n_fft}.")
        frames = 1 + (length - self.n_fft) // self.hop_length
        index = np.arange(self.n_fft) + self.hop_length * np.arange(frames)[:, None]
        window = self._window_of_fft_size()
        pieces = signal[..., index] * window                       # (..., frames, n_fft)
        spectrum = np.fft.rfft(pieces) if self.onesided else np.fft.fft(pieces)
        magnitude = np.abs(spectrum)
        if self.normalized:
            magnitude = magnitude / np.sqrt(np.sum(window ** 2))
        if self.power != 1.0:
            magnitude = magnitude ** self.power
        return np.swapaxes(magnitude, -1, -2).astype(waveform.dtype)


def _hz_to_mel(freq, mel_type):
    if mel_type == MelType.HTK:
        return 2595.0 * np.log10(1.0 + freq / 700.0)
    # Slaney: linear below 1 kHz, logarithmic above
    freq = np.asarray(freq, np.float64)
    mels = 3.0 * freq / 200.0
    log_step = np.log(6.4) / 27.0
    return np.where(freq >= 1000.0, 15.0 + np.log(np.maximum(freq, 1e-10) / 1000.0) / log_step,
                    mels)


def _mel_to_hz(mels, mel_type):
    if mel_type == MelType.HTK:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    log_step = np.log(6.4) / 27.0
    return np.where(mels >= 15.0, 1000.0 * np.exp(log_step * (mels - 15.0)), 200.0 * mels / 3.0)


def mel_filter_banks(n_freqs, f_min, f_max, n_mels, sample_rate, norm, mel_type):
    """(n_freqs, n_mels) triangular filters (PyTorch audio's construction)."""
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m_pts, mel_type)
    f_diff = np.diff(f_pts)
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    banks = np.maximum(0.0, np.minimum(down, up))
    if norm == NormType.SLANEY:
        banks *= 2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels])
    return banks


class MelScale:
    """A spectrogram (..., n_stft, time) on the mel scale: (..., n_mels, time)."""

    def __init__(self, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, n_stft=201,
                 norm=NormType.NONE, mel_type=MelType.HTK):
        check_int_range("n_mels", n_mels)
        check_int_range("sample_rate", sample_rate)
        check_type("f_min", f_min, (int, float))
        if f_max is None:
            if sample_rate // 2 <= f_min:
                raise ValueError("MelScale: sample_rate // 2 should be greater than f_min when "
                                 "f_max is set to None.")
            f_max = float(sample_rate // 2)
        else:
            check_type("f_max", f_max, (int, float))
            if f_min >= f_max:
                raise ValueError(f"MelScale: f_max should be greater than f_min, but got f_min: "
                                 f"{f_min} and f_max: {f_max}.")
        check_int_range("n_stft", n_stft)
        check_type("norm", norm, NormType)
        check_type("mel_type", mel_type, MelType)
        self.n_mels, self.n_stft = n_mels, n_stft
        self.banks = mel_filter_banks(n_stft, float(f_min), float(f_max), n_mels, sample_rate,
                                      norm, mel_type)

    def __call__(self, spec):
        spec = _float(spec)
        if spec.ndim < 2:
            raise pipeline_error(f"MelScale: the shape of input tensor does not match the "
                                 f"requirement of operator. Expecting tensor in shape of "
                                 f"<..., freq, time>. But got tensor with dimension "
                                 f"{spec.ndim}.")
        if spec.shape[-2] != self.n_stft:
            raise pipeline_error(f"MelScale: invalid parameter, 'n_stft' should be equal to "
                                 f"'freq', but got: n_stft {self.n_stft} while freq "
                                 f"{spec.shape[-2]}.")
        mel = np.swapaxes(np.swapaxes(spec, -1, -2).astype(np.float64) @ self.banks, -1, -2)
        return mel.astype(spec.dtype)


class MelSpectrogram:
    """``Spectrogram`` then ``MelScale`` with the shared arguments."""

    def __init__(self, sample_rate=16000, n_fft=400, win_length=None, hop_length=None,
                 f_min=0.0, f_max=None, pad=0, n_mels=128, window=WindowType.HANN, power=2.0,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True,
                 norm=NormType.NONE, mel_scale=MelType.HTK):
        self.spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, power,
                                       normalized, center, pad_mode, onesided)
        self.mel_scale = MelScale(n_mels, sample_rate, f_min, f_max, n_fft // 2 + 1, norm,
                                  mel_scale)

    def __call__(self, waveform):
        return self.mel_scale(self.spectrogram(waveform))
