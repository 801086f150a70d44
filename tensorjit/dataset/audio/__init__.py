"""``tensorjit.dataset.audio``: MindSpore's audio operations on NumPy arrays.

The operations run in the data pipeline on NumPy arrays (no graph, no gradient), so the
short-time Fourier transform uses NumPy's complex FFT inside the operation even though
tensorjit tensors have no complex dtype; the results handed on are real.
"""
from .enums import ScaleType, WindowType, BorderType, NormType, MelType
from .transforms import (AmplitudeToDB, DBToAmplitude, Gain, Spectrogram, MelScale,
                         MelSpectrogram)

__all__ = ["ScaleType", "WindowType", "BorderType", "NormType", "MelType", "AmplitudeToDB",
           "DBToAmplitude", "Gain", "Spectrogram", "MelScale", "MelSpectrogram"]
