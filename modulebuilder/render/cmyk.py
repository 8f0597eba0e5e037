"""CMYK output for print shops: sRGB colours converted through an ICC profile, and the profile written as
the PDF's output intent.

The conversion: sRGB (the colours authors write, and what the module's PNGs show) to FOGRA39 ("ISO Coated
v2", offset on coated paper: the characterisation most European and many US print shops ask for by
default) with Little CMS through Pillow's ImageCms, *relative colorimetric* intent with black-point
compensation, so in-gamut colours keep their appearance and the darkest sRGB tones map to the press's
darkest.  One exception: neutral greys and black (r = g = b) are printed on the black plate alone
(``0 0 0 k``), because text and hairlines in four-colour black blur when the plates do not register.

The profile is not bundled: ``FOGRA39L_coated.icc`` ships with Debian's TeX Live base (the
``colorprofiles`` package), and ``--cmyk-profile FILE`` takes any CMYK output profile a print shop
supplies (its description becomes the output condition)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageCms

from modulebuilder.render.pdf import ColourSpace

SYSTEM_PROFILES = (
    Path("/usr/share/texlive/texmf-dist/tex/generic/colorprofiles/FOGRA39L_coated.icc"),
    Path("/usr/share/color/icc/FOGRA39L_coated.icc"),
)


def default_profile() -> Path:
    for p in SYSTEM_PROFILES:
        if p.is_file():
            return p
    raise ValueError("no CMYK output profile found (install Debian's texlive-base for FOGRA39L_coated.icc, "
                     "or pass --cmyk-profile FILE)")


@lru_cache(maxsize=4)
def _transform(profile: str) -> ImageCms.ImageCmsTransform:
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(profile), "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


def converter(profile: str):  # type: ignore[no-untyped-def]
    transform = _transform(profile)

    @lru_cache(maxsize=4096)
    def convert(c: tuple[int, int, int]) -> tuple[float, float, float, float]:
        r, g, b = c
        if r == g == b:
            return 0.0, 0.0, 0.0, round(1 - r / 255, 4)
        px = ImageCms.applyTransform(Image.new("RGB", (1, 1), c), transform).getpixel((0, 0))
        return tuple(round(v / 255, 4) for v in px)  # type: ignore[return-value]
    return convert


def cmyk_space(profile: str | Path | None = None) -> ColourSpace:
    """A :class:`ColourSpace` writing DeviceCMYK through ``profile`` (default: FOGRA39), with its output intent."""
    path = Path(profile) if profile else default_profile()
    if not path.is_file():
        raise ValueError(f"CMYK profile {path}: no such file")
    prof = ImageCms.getOpenProfile(str(path))
    if prof.profile.xcolor_space.strip() != "CMYK":
        raise ValueError(f"CMYK profile {path}: a {prof.profile.xcolor_space.strip()} profile, not a CMYK output profile")
    desc = (ImageCms.getProfileDescription(prof) or path.stem).strip()
    return ColourSpace(converter(str(path)), path.read_bytes(), desc)


def image_for(colours: ColourSpace, img: Image.Image) -> Image.Image:
    """Author art in the document's colour space (CMYK through the profile when the document is CMYK)."""
    if not colours.cmyk or colours.profile is None:
        return img
    alpha = img.getchannel("A") if img.mode == "RGBA" else None
    import io
    out = ImageCms.profileToProfile(img.convert("RGB"), ImageCms.createProfile("sRGB"),
                                    ImageCms.getOpenProfile(io.BytesIO(colours.profile)), outputMode="CMYK",
                                    renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                    flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    assert out is not None
    if alpha is not None:
        # Soft masks travel with CMYK images too: keep the art's transparency.
        out.info["alpha"] = alpha
    return out
