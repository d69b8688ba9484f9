"""Device names as torch spells them ('cpu', 'cuda:1', 'mps'), read without torch: the
search's config and the programs' choices ask what kind of device a name is before (or
without) loading a network."""


def is_cpu(device):
    """Whether `device` (a name or a torch.device) is the CPU."""
    return str(device).split(':')[0] == 'cpu'
